import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Submitting many requests without replacing (a launch starting every user's chains) stores one per
/// chain, and none for a chain that is pending, running or discarded: what submitting them one at a
/// time stores.
@Suite("Starting many chains at once")
struct ChainStartTests {
    static func request(_ identifier: String, _ scope: String) -> NewTaskRequest {
        NewTaskRequest(identifier: identifier, scope: scope, kind: .refresh, earliestBeginAt: nil)
    }

    @Test(
        "a chain that has a request, running or pending, or was discarded gets none; a chain named twice gets one",
        arguments: TestBackend.all)
    func oneRequestPerChain(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.submit([Self.request("daily", "pending"), Self.request("daily", "running")], replacing: false)
        let claimed = try await store.claimTaskRequests(
            TaskClaim(
                owner: "w", refreshLease: 600, processingLease: 600, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: ["daily"], scope: "running", limit: 10))
        #expect(claimed.map(\.request.scope) == ["running"])
        try await store.submit(Self.request("daily", "gone"), replacing: false)
        let gone = try #require(try await store.taskRequests(identifier: "daily", scope: "gone").first)
        _ = try await store.cancelTaskRequests(ids: [gone.id], identifier: nil, scope: nil)
        #expect(try await store.discardedTaskRequests().map(\.request.scope) == ["gone"])

        let stored = try await store.submit(
            ["pending", "new-1", "running", "new-2", "gone", "new-1", "new-3"].map { Self.request("daily", $0) },
            replacing: false)
        #expect(stored == 3)
        let requests = try await store.taskRequests(identifier: "daily")
        #expect(requests.map(\.scope).sorted() == ["new-1", "new-2", "new-3", "pending", "running"])
        // New requests take ids in the order they were submitted.
        let new = requests.filter { $0.scope.hasPrefix("new") }.sorted { $0.id < $1.id }
        #expect(new.map(\.scope) == ["new-1", "new-2", "new-3"])
        #expect(
            try await store.submit([Self.request("daily", "new-2"), Self.request("daily", "new-3")], replacing: false)
                == 0)
    }

    @Test(
        "the due count of a launch leaves out leased, later, newer and other tasks' and scopes' requests",
        arguments: TestBackend.all)
    func dueCount(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let now = database.clock.now
        try await store.submit(
            ["a", "b", "c", "running"].map { Self.request("daily", $0) }
                + [
                    NewTaskRequest(
                        identifier: "daily", scope: "later", kind: .refresh, earliestBeginAt: now + 3600),
                    Self.request("weekly", "a"),
                ],
            replacing: false)
        _ = try await store.claimTaskRequests(
            TaskClaim(
                owner: "w", refreshLease: 600, processingLease: 600, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: ["daily"], scope: "running", limit: 10))
        let cutoff = try await store.latestTaskRequestID()
        try await store.submit(Self.request("daily", "newer"), replacing: false)

        func count(_ identifiers: [String], scope: String? = nil, at instant: Date = now) async throws -> Int {
            try await store.dueTaskRequestCount(
                identifiers: identifiers, scope: scope, at: instant, upToRequestID: cutoff)
        }
        #expect(try await count(["daily"]) == 3)
        #expect(try await count(["daily", "weekly"]) == 4)
        #expect(try await count(["daily"], scope: "b") == 1)
        #expect(try await count(["daily"], scope: "running") == 0)
        #expect(try await count(["daily"], at: now + 3600) == 4)
        #expect(try await count(["monthly"]) == 0)
    }

    @Test(
        "a page of chain starts inserts and withdraws through each chain's index, whatever the statistics say",
        .postgreSQL)
    func chainStartsReadTheirOwnChains() async throws {
        let database = TestDatabase(.postgresql)
        _ = try Store(path: database.path, clock: database.clock)
        // A first night half done: 10,000 of 20,000 users have their chain, under statistics taken while there were
        // no requests (a launch refreshes them only now and then).
        try Store.executeForTesting(
            at: database.path,
            """
            INSERT INTO users (id, created_at) SELECT 'u' || lpad(g::text, 5, '0'), 0 FROM generate_series(0, 19999) AS g;
            ANALYZE users; ANALYZE task_requests; ANALYZE discarded_task_requests;
            INSERT INTO task_requests (identifier, scope, kind, submitted_at)
            SELECT 'daily', 'u' || lpad(g::text, 5, '0'), 'refresh', 0 FROM generate_series(0, 9999) AS g;
            """)
        let page = 500
        let connection = try PostgreSQLConnection(url: database.path)
        /// The rows each step of `sql`'s plan produced or passed over, times how often it ran.
        func rowsRead(_ sql: SQL, _ parameters: [String?]) throws -> Int {
            let plan = try connection.queryUncached("EXPLAIN (ANALYZE, FORMAT JSON) " + sql.postgresql.text, parameters)
                .string(0, 0)
            return HistoryRetentionTests.planNodes(try JSONSerialization.jsonObject(with: Data(plan.utf8))).reduce(0) {
                read, node in
                let rows = ["Actual Rows", "Rows Removed by Filter", "Rows Removed by Join Filter"].reduce(0) {
                    $0 + (node[$1] as? Int ?? 0)
                }
                return read + rows * (node["Actual Loops"] as? Int ?? 1)
            }
        }
        let chains = (10_000..<10_000 + page).map { String(format: "u%05d", $0) }
        let rows = chains.map { "[\"daily\", \"\($0)\", \"refresh\", null, false, false]" }.joined(separator: ",")
        let kept = try rowsRead(.keepTaskRequests, ["[\(rows)]", "0"])
        let ids = try connection.queryUncached(
            "SELECT array_agg(id)::text FROM task_requests WHERE identifier = 'daily' AND scope >= 'u10000'"
        ).string(0, 0)
        let withdrawn = try rowsRead(.withdrawTaskRequests, [ids])
        for (statement, read) in [("the insert", kept), ("the withdrawal", withdrawn)] {
            #expect(read <= 8 * page, "\(statement) read \(read) rows for a page of \(page) chains among 10,000")
        }
    }
}
