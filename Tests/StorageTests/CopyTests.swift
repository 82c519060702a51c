import Domain
import Foundation
import Storage
import TestSupport
import Testing

/// `Store.copy` and the export/import contract under it, on both drivers: rows go in and come out
/// exactly as given (ids, NULLs, doubles, JSON as written, text that needs escaping), between every
/// pair of backends, and a copy that does not finish leaves its target empty.
@Suite("Copy between databases")
struct CopyTests {
    /// Text that breaks naive quoting: SQL and array-literal metacharacters, a newline, non-ASCII.
    static let awkward = "quote \" backslash \\ braces {a,b} comma, NULL 'single' \n newline ünïcødé 🩺"
    static let t0: Int64 = 1_772_366_400_000

    /// A row or two in every table, each column with a value that could go wrong in transit.
    static let sample: [CopyTable: [[CopyValue]]] = [
        .users: [
            [.text("alice"), .text("Europe/Berlin"), .integer(t0)],
            [.text("bob"), .text("UTC"), .integer(t0 + 1)],
            [.text("NULL"), .text("Pacific/Kiritimati"), .integer(t0 + 2)],
        ],
        .dailyLogs: [
            [
                .text("alice"), .text("2026-03-01"), .integer(4), .integer(3), .integer(2), .text(awkward),
                .real(48.2), .text("user"), .real(61), .text("health"), .integer(8_042), .text("health"),
                .real(25_200.5), .text("user"), .integer(t0 + 10),
            ],
            [
                .text("alice"), .text("2026-03-02"), .null, .null, .null, .text(""), .null, .null, .null, .null,
                .null, .null, .null, .null, .integer(t0 + 11),
            ],
            [
                .text("bob"), .text("2026-03-01"), .integer(0), .null, .null, .null, .real(1.000_000_000_000_000_2),
                .text("health"), .null, .null, .integer(0), .text("user"), .real(86_400), .text("health"),
                .integer(t0 + 12),
            ],
        ],
        .userSettings: [
            [.text("alice"), .text("engagementNotifications"), .text("false"), .integer(t0 + 20)],
            [.text("bob"), .text("x"), .text(#"{ "nested" : [1, 2.50, "\u00e9"] }"#), .integer(t0 + 21)],
        ],
        .watchItems: [
            [
                .text("alice"), .text("symptomLog"), .text(#"{"day":"2026-03-01", "symptomSeverity": 5}"#),
                .integer(t0 + 30), .integer(2), .text(awkward), .null,
            ].withID(3),
            [.text("bob"), .text("medicationLog"), .text("[]"), .integer(t0 + 31), .integer(0), .null, .integer(1)]
                .withID(7),
        ],
        .watchDeadLetters: [
            [
                .text("alice"), .text("symptomLog"), .text(#"{"mood":9}"#), .integer(t0 + 40), .integer(5),
                .text("mood: out of range"), .integer(t0 + 41), .null, .null,
            ].withID(9),
            [
                .text("bob"), .text("symptomLog"), .text("{}"), .integer(t0 + 42), .integer(5), .text(awkward),
                .integer(t0 + 43), .integer(t0 + 44), .integer(8),
            ].withID(6),
        ],
        .taskRequests: [
            [
                .text("health-refresh"), .text("alice"), .text("refresh"), .null, .integer(0), .integer(0),
                .integer(t0 + 50), .integer(0), .null, .null, .null, .null,
            ].withID(4),
            [
                .text("ml-retrain"), .text(""), .text("processing"), .integer(t0 + 86_400_000), .integer(1),
                .integer(1), .integer(t0 + 51), .integer(3), .text("worker-a"), .integer(t0 + 3_600_000),
                .integer(t0 + 52), .text(awkward),
            ].withID(11),
        ],
        .discardedTaskRequests: [
            [
                .integer(12), .text("engagement-daily"), .text("bob"), .text("refresh"), .integer(t0 + 53),
                .integer(0), .integer(0), .integer(t0 + 54), .integer(12), .text(awkward), .text("attempts"),
                .integer(t0 + 55),
            ].withID(2)
        ],
        .taskRuns: [
            [
                .integer(2), .text("health-refresh"), .text("alice"), .text("refresh"), .integer(1), .text("w"),
                .integer(t0 + 60), .integer(t0 + 61), .integer(t0 + 62), .text("success"), .null, .integer(1),
                .integer(3),
            ].withID(20),
            [
                .integer(11), .text("ml-retrain"), .text(""), .text("processing"), .integer(3), .text("worker-a"),
                .integer(t0 + 63), .integer(t0 + 3_600_000), .null, .null, .null, .null, .null,
            ].withID(21),
        ],
        .latestTaskRuns: [
            [
                .text("health-refresh"), .text("alice"), .integer(20), .integer(2), .text("refresh"), .integer(1),
                .text("w"), .integer(t0 + 60), .integer(t0 + 61), .integer(t0 + 62), .text("success"), .null,
                .integer(1), .integer(3), .integer(t0 + 62),
            ],
            [
                .text("weekly-insight"), .text("bob"), .integer(15), .integer(9), .text("refresh"), .integer(2),
                .text("w"), .integer(t0 + 56), .integer(t0 + 57), .integer(t0 + 58), .text("failure"), .text(awkward),
                .integer(0), .null, .null,
            ],
        ],
        .schedulerLaunches: [[.integer(t0 + 65), .text("host:1:a")].withID(1)],
        .outbox: [
            [
                .text("alice"), .text("log-reminder"), .text("2026-03-01"), .text(awkward), .integer(t0 + 70),
                .integer(t0 + 71),
            ].withID(5),
            [.text("bob"), .text("insight"), .text("2026-03-02"), .text("b"), .integer(t0 + 72), .null].withID(6),
        ],
        .modelArtifacts: [
            [
                .text("*"), .integer(1), .text("population"), .text("2026-03-01"), .integer(t0 + 80), .integer(1),
                .text("first"), .null, .text(#"{"coefficients": [0.1, -2.5e-7]}"#),
            ].withID(1),
            [
                .text("alice"), .integer(1), .text("personal"), .text("2026-03-01"), .integer(t0 + 81), .integer(0),
                .text(awkward), .text("abc123"), .text("{}"),
            ].withID(2),
        ],
        .servingModels: [[.text("*"), .integer(1), .integer(t0 + 90)]],
        .evaluations: [
            [
                .integer(t0 + 100), .text("2026-02-01"), .text("2026-02-28"), .integer(28),
                .text(#"{"served": 1.25e-3}"#),
            ]
            .withID(3),
            [.integer(t0 + 101), .text("2026-02-02"), .text("2026-03-01"), .integer(28), .text("{}")].withID(4),
        ],
    ]

    static let pairs: [(TestBackend, TestBackend)] = {
        let backends = TestBackend.all
        return backends.flatMap { from in backends.map { to in (from, to) } }
    }()

    /// A store at `db` holding `rows`, written through the import contract.
    static func store(_ db: TestDatabase, holding rows: [CopyTable: [[CopyValue]]]) async throws -> Store {
        let store = try Store(path: db.path, clock: db.clock)
        try await store.beginImport()
        for table in CopyTable.allCases {
            try await store.importRows(rows[table] ?? [], into: table)
        }
        try await store.finishImport()
        return store
    }

    static func unordered(_ rows: [CopyTable: [[CopyValue]]]) -> [CopyTable: Set<[CopyValue]>] {
        rows.mapValues { Set($0) }
    }

    @Test("rows come out of a store exactly as they went in", arguments: TestBackend.all)
    func importThenExport(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try await Self.store(database, holding: Self.sample)
        let rows = try await copyRows(of: store, pageSize: 2)
        #expect(Self.unordered(rows) == Self.unordered(Self.sample))
        // Through the ordinary API too: the values, their sources and the model served.
        let log = try #require(try await store.dailyLog(user: .literal("alice"), day: .literal("2026-03-01")))
        #expect(log.notes == Self.awkward)
        #expect(log.hrv == Sourced(48.2, .user))
        #expect(log.stepCount == Sourced(8_042, .health))
        #expect(try await store.servingModel(scope: StoredModel.populationScope)?.id == 1)
        #expect(try await store.taskRequests(identifier: "ml-retrain").first?.leaseOwner == "worker-a")
        #expect(try await store.settings(for: .literal("alice")).engagementNotifications == false)
    }

    @Test("a copy carries every row, in pages, between every pair of backends", arguments: pairs)
    func copy(from: TestBackend, to: TestBackend) async throws {
        let sourceDatabase = TestDatabase(from)
        let source = try await Self.store(sourceDatabase, holding: Self.sample)
        let targetDatabase = TestDatabase(to)
        let target = try Store(path: targetDatabase.path)
        #expect(try await target.tablesHoldingRows().isEmpty)
        let copied = try await Store.copy(from: source, to: target, pageSize: 2)
        #expect(copied.map(\.table) == CopyTable.allCases)
        for entry in copied {
            #expect(entry.rows == Self.sample[entry.table]?.count, "\(entry.table.name)")
        }
        let rows = try await copyRows(of: target, pageSize: 2)
        #expect(Self.unordered(rows) == Self.unordered(Self.sample))
        if from == to {
            // One collation on both sides: the same rows in the same order.
            #expect(rows == (try await copyRows(of: source)))
        }
        #expect(try await target.tablesHoldingRows() == CopyTable.allCases)
    }

    @Test("a target with a row in any table is refused and left as it was", arguments: TestBackend.all)
    func refusesNonEmptyTarget(backend: TestBackend) async throws {
        let sourceDatabase = TestDatabase(.sqlite)
        let source = try await Self.store(sourceDatabase, holding: Self.sample)
        let db = TestDatabase(backend)
        let target = try await Self.store(db, holding: [.users: [[.text("zoe"), .text("UTC"), .integer(Self.t0)]]])
        let before = try await copyRows(of: target)
        await #expect {
            _ = try await Store.copy(from: source, to: target)
        } throws: { error in
            guard case StorageError.copyTargetNotEmpty(let location, let tables) = error else { return false }
            return location == target.location && tables == ["users"]
        }
        #expect(try await copyRows(of: target) == before)
    }

    @Test("a copy that fails part way leaves the target empty, and copying again works", .postgreSQL)
    func failedCopyLeavesNothing() async throws {
        // SQLite does not check a dead letter's payload; PostgreSQL's JSON column refuses this one,
        // after every table before it was written.
        var broken = Self.sample
        broken[.watchDeadLetters]![0][3] = .text("not json")
        let brokenDatabase = TestDatabase(.sqlite)
        let source = try await Self.store(brokenDatabase, holding: broken)
        let targetDatabase = TestDatabase(.postgresql)
        let target = try Store(path: targetDatabase.path)
        await #expect {
            _ = try await Store.copy(from: source, to: target, pageSize: 1)
        } throws: { error in
            // 22P02: invalid text representation (of JSON).
            guard case StorageError.postgresql(let sqlState, _, _) = error else { return false }
            return sqlState == "22P02"
        }
        #expect(try await target.tablesHoldingRows().isEmpty)
        let fineDatabase = TestDatabase(.sqlite)
        let fine = try await Self.store(fineDatabase, holding: Self.sample)
        _ = try await Store.copy(from: fine, to: target)
        #expect(Self.unordered(try await copyRows(of: target)) == Self.unordered(Self.sample))
    }

    @Test("an import whose process dies leaves the target empty, and copying again works", arguments: TestBackend.all)
    func diedImportLeavesNothing(backend: TestBackend) async throws {
        // The connection goes with the process, and the open transaction with it.
        let db = TestDatabase(backend)
        do {
            let dying = try Store(path: db.path)
            try await dying.beginImport()
            try await dying.importRows(Self.sample[.users]!, into: .users)
            try await dying.importRows(Self.sample[.dailyLogs]!, into: .dailyLogs)
        }
        let reopened = try Store(path: db.path)
        #expect(try await reopened.tablesHoldingRows().isEmpty)
        let sourceDatabase = TestDatabase(backend)
        let source = try await Self.store(sourceDatabase, holding: Self.sample)
        _ = try await Store.copy(from: source, to: reopened)
        #expect(Self.unordered(try await copyRows(of: reopened)) == Self.unordered(Self.sample))
    }

    @Test("two copies into one PostgreSQL database at once: one copies, the other is refused", .postgreSQL)
    func concurrentCopies() async throws {
        let firstDatabase = TestDatabase(.sqlite)
        let first = try await Self.store(firstDatabase, holding: Self.sample)
        let secondDatabase = TestDatabase(.sqlite)
        let second = try await Self.store(secondDatabase, holding: Self.sample)
        let db = TestDatabase(.postgresql)
        let targets = (try Store(path: db.path), try Store(path: db.path))
        func attempt(_ source: Store, _ target: Store) async -> Result<[CopiedTable], StorageError> {
            do {
                return .success(try await Store.copy(from: source, to: target))
            } catch {
                return .failure(error)
            }
        }
        async let one = attempt(first, targets.0)
        async let two = attempt(second, targets.1)
        let results = await [one, two]
        // The loser waits for the winner's table locks: refused as not empty once the winner commits, or as busy
        // ("try again later") when the winner holds them past the lock timeout (a loaded machine). Either way it
        // wrote nothing.
        let refusals = results.filter { result in
            switch result {
            case .failure(.copyTargetNotEmpty): true
            case .failure(let error): error.isBusy
            case .success: false
            }
        }
        #expect(results.count { if case .success = $0 { true } else { false } } == 1)
        #expect(refusals.count == 1, "\(results)")
        #expect(Self.unordered(try await copyRows(of: targets.0)) == Self.unordered(Self.sample))
    }
}

extension [CopyValue] {
    /// The row with `id` as its first column.
    fileprivate func withID(_ id: Int64) -> [CopyValue] {
        [.integer(id)] + self
    }
}
