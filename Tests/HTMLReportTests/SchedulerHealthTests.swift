import Foundation
import HTMLReport
import PipelineKit
import Storage
import TestSupport
import Testing

/// The cohort page's scheduler section on requests and runs made through Store's API: failures per
/// day stacked on successes, and pending requests sorted into overdue, due and waiting.
@Suite("Report: scheduler health", .timeLimit(.minutes(10)))
struct SchedulerHealthTests {
    static let now = Date(iso: "2026-03-15T12:00:00Z")

    static func request(_ identifier: String, _ user: UserID, dueIn seconds: TimeInterval) -> NewTaskRequest {
        NewTaskRequest(
            identifier: identifier, scope: user.rawValue, kind: .refresh, earliestBeginAt: now + seconds)
    }

    @Test(
        "failed runs are counted per day apart from successes; pending requests by how late they are",
        arguments: TestBackend.all)
    func health(backend: TestBackend) async throws {
        let database = TestDatabase(backend, now: Self.now - 86400)
        let pipeline = try await database.open()
        let store = pipeline.store
        let users = ["ann", "bob", "cy"].map(UserID.literal)
        for user in users { try await store.save(User(id: user, timeZone: TimeZone(identifier: "UTC")!)) }

        // Yesterday: three runs of health-refresh, one of which fails.
        for (user, succeeds) in zip(users, [true, false, true]) {
            _ = try await store.submit(Self.request("health-refresh", user, dueIn: -86400), replacing: true)
            let claim = TaskClaim(
                owner: "w", refreshLease: 60, processingLease: 600, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: ["health-refresh"], scope: user.rawValue, limit: 1)
            let claimed = try #require(try await store.claimTaskRequests(claim).first)
            _ = try await store.finishTaskRun(
                TaskRunCompletion(
                    claimed, owner: "w", outcome: succeeds ? .success : .failure, reason: succeeds ? nil : "broke",
                    retryAt: succeeds ? nil : Self.now + 7200))
        }
        // Now: bob's failed request waits for its retry in two hours; ann's engagement is two days
        // late (overdue: longer than its daily cadence), cy's ten minutes (due), and ann's insight
        // is due tomorrow (waiting).
        database.clock.set(Self.now)
        _ = try await store.submit(Self.request("engagement-daily", users[0], dueIn: -2 * 86400), replacing: true)
        _ = try await store.submit(Self.request("engagement-daily", users[2], dueIn: -600), replacing: true)
        _ = try await store.submit(Self.request("weekly-insight", users[0], dueIn: 86400), replacing: true)

        let directory = TemporaryDirectory("report")
        var options = ReportOptions(outputPath: directory.path("site"))
        options.user = users[0]
        _ = try await ReportGenerator.write(pipeline: pipeline, options: options)
        let index = try contents(directory.path("site") + "/index.html")
        #expect(index.contains("<title>2026-03-14: 2 succeeded</title>"))
        #expect(index.contains("<title>2026-03-14: 1 failed</title>"))
        #expect(
            index.contains(
                "<td>overdue (due for longer than their task&#39;s cadence)</td><td class=\"num\">1, the oldest by 2 days</td>"
            ))
        #expect(index.contains("<td>due, waiting for the next launch</td><td class=\"num\">1</td>"))
        #expect(index.contains("<td>waiting until their time</td><td class=\"num\">2</td>"))
        #expect(index.contains("<td>running now</td><td class=\"num\">0</td>"))
        #expect(index.contains("<td>last launch</td><td>2026-03-14T12:00:00Z</td>"))
    }
}
