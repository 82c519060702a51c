import Foundation
import Ingestion
import TestSupport
import Testing

@testable import PipelineKit
@testable import Storage

@Suite("Watch queue")
struct WatchQueueTests {
    static let ada = UserID.literal("ada")

    static func watch(_ kind: String, _ payload: String, at time: String = "2026-03-15T08:00:00Z") -> InputRecord {
        .watch(WatchSubmission(user: ada, kind: kind, payload: payload, enqueuedAt: Date(iso: time)))
    }

    @Test(
        "an unknown-kind item an input repeats is kept each time, once; known items repeated keep the last",
        arguments: TestBackend.all)
    func repeatsAndReruns(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        let input = [
            Self.watch("stepsBurst", #"{"steps":100}"#), Self.watch("stepsBurst", #"{"steps":200}"#),
            Self.watch("stepsBurst", #"{"steps":100}"#),
            Self.watch("symptomLog", #"{"day":"2026-03-14","symptomSeverity":6}"#),
            Self.watch("symptomLog", #"{"day":"2026-03-14","symptomSeverity":2}"#),
            Self.watch("symptomLog", #"{"day":"2026-03-14","symptomSeverity":6}"#),
        ]
        try await pipeline.ingest(input)
        try await pipeline.ingest(input)
        let queued = try await pipeline.store.allWatchItems(user: Self.ada)
        #expect(queued.map(\.payload) == [#"{"steps":100}"#, #"{"steps":200}"#, #"{"steps":100}"#])
        let log = try await pipeline.dailyLog(user: Self.ada, day: .literal("2026-03-14"))
        #expect(log?.symptomSeverity == 6)
    }

    @Test(
        "draining one kind applies and removes only that kind; other and unknown kinds stay queued",
        arguments: TestBackend.all)
    func drainByKind(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        // Queue directly, as a watch would, without ingest's own drain.
        for item in [
            Self.watch("symptomLog", #"{"day":"2026-03-14","symptomSeverity":6}"#),
            Self.watch("healthCheckIn", #"{"day":"2026-03-14","mood":2,"energy":3}"#),
            Self.watch("medicationTaken", #"{"day":"2026-03-14","dose":"10mg"}"#),
        ] {
            guard case .watch(let submission) = item else { continue }
            try await pipeline.store.enqueue(submission)
        }
        let report = try await pipeline.drainWatchQueue(kinds: [.symptomLog])
        #expect(report.applied == ["symptomLog": 1])
        let log = try #require(try await pipeline.dailyLog(user: Self.ada, day: .literal("2026-03-14")))
        #expect(log.symptomSeverity == 6)
        #expect(log.mood == nil)
        let queued = try await pipeline.summary().watchItemsByKind
        #expect(queued == ["healthCheckIn": 1, "medicationTaken": 1])

        let second = try await pipeline.drainWatchQueue()
        #expect(second.applied == ["healthCheckIn": 1])
        #expect(try await pipeline.summary().watchItemsByKind == ["medicationTaken": 1])
        #expect(try await pipeline.dailyLog(user: Self.ada, day: .literal("2026-03-14"))?.mood == 2)
    }

    @Test(
        "ingesting watch lines applies the known kinds at once and keeps the unknown ones", arguments: TestBackend.all)
    func foregroundPath(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        let report = try await pipeline.ingest([
            Self.watch("symptomLog", #"{"day":"2026-03-15","symptomSeverity":2}"#),
            Self.watch("sleepQuality", #"{"day":"2026-03-15","score":4}"#),
        ])
        #expect(report.stored["watch"] == 2)
        #expect(report.drained.applied == ["symptomLog": 1])
        #expect(try await pipeline.summary().watchItemsByKind == ["sleepQuality": 1])
    }

    @Test(
        "a bulk input's 10,000 watch items are all applied, in order, after the queue's statistics are refreshed",
        arguments: TestBackend.all)
    func bulkInputDrainsWhole(backend: TestBackend) async throws {
        let database = TestDatabase(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        let pipeline = try await database.open()
        if backend == .postgresql {
            // Autovacuum would analyze the emptied queue again after its naptime (a minute), which a loaded
            // suite can reach before the check below: this table's statistics are then ingestion's alone.
            let connection = try PostgreSQLConnection(url: database.path)
            try connection.execute("ALTER TABLE watch_items SET (autovacuum_enabled = false)")
        }
        // 100 days, each logged 100 times: the last item of a day is the one that stays.
        var lines = ""
        for copy in 0..<100 {
            for offset in 0..<100 {
                let day = Day.literal("2025-12-01").adding(days: offset)
                lines +=
                    #"{"type":"watch","user":"ada","kind":"symptomLog","payload":{"day":"\#(day)","#
                    + #""symptomSeverity":\#((offset + copy) % 11)}}"# + "\n"
            }
        }
        let report = try await pipeline.ingestJSONLines(bytes: Array(lines.utf8)) { _ in }
        #expect(report.stored["watch"] == 10_000)
        #expect(report.drained.applied == ["symptomLog": 10_000])
        #expect(try await pipeline.summary().watchItemsByKind.isEmpty)
        let logs = try await pipeline.dailyLogs(user: Self.ada)
        #expect(logs.count == 100)
        #expect(logs.enumerated().allSatisfy { $0.element.symptomSeverity == ($0.offset + 99) % 11 })
        if backend == .postgresql {
            // The planner knows the queue held 10,000 rows (pg_class.reltuples is -1 until a table is analyzed).
            let connection = try PostgreSQLConnection(url: database.path)
            let rows = try connection.query(
                "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass('watch_items')")
            #expect(rows.int64(0, 0) == 10_000)
        }
    }

    @Test(
        "an item that keeps failing is retried with its count and error, then moved to the dead letters",
        arguments: TestBackend.all)
    func deadLetter(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        // A payload the library accepted unchecked but that can never apply.
        try await pipeline.store.enqueue(
            WatchSubmission(
                user: Self.ada, kind: "symptomLog", payload: #"{"day":"2026-03-14","symptomSeverity":42}"#,
                enqueuedAt: database.clock.now))
        for attempt in 1..<WatchItem.maxAttempts {
            let report = try await pipeline.drainWatchQueue()
            #expect(report.failed == 1)
            let items = try await pipeline.store.allWatchItems()
            #expect(items.count == 1)
            #expect(items.first?.attempts == attempt)
            #expect(items.first?.lastError == "payload.symptomSeverity: must be between 0 and 10")
        }
        let last = try await pipeline.drainWatchQueue()
        #expect(last.deadLettered == 1)
        #expect(try await pipeline.store.allWatchItems().isEmpty)
        let letters = try await pipeline.store.deadLetters()
        #expect(letters.count == 1)
        #expect(letters.first?.item.attempts == WatchItem.maxAttempts)
        #expect(letters.first?.item.payload == #"{"day":"2026-03-14","symptomSeverity":42}"#)
        #expect(try await pipeline.summary().deadLetters == 1)
    }

    @Test(
        "an item for a day too far ahead is not applied; it stays queued with one failed attempt",
        arguments: TestBackend.all)
    func futureWatchItem(backend: TestBackend) async throws {
        let database = TestDatabase(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        let pipeline = try await database.open()
        try await pipeline.store.enqueue(
            WatchSubmission(
                user: Self.ada, kind: "healthCheckIn", payload: #"{"day":"2026-03-20","mood":4}"#,
                enqueuedAt: database.clock.now))
        let report = try await pipeline.drainWatchQueue()
        #expect(report.failed == 1)
        #expect(try await pipeline.dailyLogs(user: Self.ada).isEmpty)
        #expect(try await pipeline.store.allWatchItems().count == 1)
    }

    @Test(
        "a health-refresh drain fenced by a lease another claim took over applies nothing; the new lease's drain does",
        arguments: TestBackend.all)
    func fencedDrain(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        try await pipeline.ingest(.user(UserUpdate(id: Self.ada)))
        let store = pipeline.store
        try await store.enqueue(
            WatchSubmission(
                user: Self.ada, kind: "symptomLog", payload: #"{"day":"2026-03-14","symptomSeverity":6}"#,
                enqueuedAt: database.clock.now))
        try await store.submit(
            NewTaskRequest(identifier: "health-refresh", scope: "ada", kind: .refresh, earliestBeginAt: nil),
            replacing: true)
        func claim(_ owner: String) async throws -> TaskLease {
            let claimed = try await store.claimTaskRequests(
                TaskClaim(
                    owner: owner, refreshLease: 40, processingLease: 610, isOnExternalPower: true,
                    hasNetworkConnectivity: true, identifiers: ["health-refresh"], scope: "ada", limit: 1))
            return try #require(claimed.first).lease(owner: owner)
        }
        let paused = try await claim("host:1:a/1")
        database.clock.advance(by: 41)
        let takeover = try await claim("host:2:b/1")

        let late = try await pipeline.drainWatchQueue(kinds: WatchKind.allCases, user: Self.ada, fencedBy: paused)
        #expect(late.leaseLost && late.report.appliedCount == 0 && late.report.failed == 0)
        #expect(try await store.allWatchItems().count == 1)
        #expect(try await pipeline.dailyLog(user: Self.ada, day: .literal("2026-03-14"))?.symptomSeverity == nil)

        let current = try await pipeline.drainWatchQueue(kinds: WatchKind.allCases, user: Self.ada, fencedBy: takeover)
        #expect(!current.leaseLost && current.report.applied == ["symptomLog": 1])
        #expect(try await pipeline.dailyLog(user: Self.ada, day: .literal("2026-03-14"))?.symptomSeverity == 6)
    }
}

@Suite("Settings")
struct SettingsTests {
    @Test(
        "a user who never changed a setting reads the registered defaults: notifications on, reminder at 20",
        arguments: TestBackend.all)
    func defaults(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        try await pipeline.ingest(.user(UserUpdate(id: .literal("new"))))
        let settings = try await pipeline.settings(for: .literal("new"))
        #expect(settings.engagementNotifications)
        #expect(settings.weeklyInsight)
        #expect(settings.reminderHour == 20)
    }

    @Test(
        "a changed setting is kept, the others keep their defaults, and null resets to the default",
        arguments: TestBackend.all)
    func changes(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        let user = UserID.literal("ada")
        try await pipeline.ingest(
            .settings(SettingsUpdate(user: user, changes: [.engagementNotifications: .bool(false)])))
        var settings = try await pipeline.settings(for: user)
        #expect(!settings.engagementNotifications)
        #expect(settings.weeklyInsight)
        try await pipeline.ingest(.settings(SettingsUpdate(user: user, changes: [.reminderHour: .integer(7)])))
        settings = try await pipeline.settings(for: user)
        #expect(!settings.engagementNotifications)
        #expect(settings.reminderHour == 7)
        try await pipeline.ingest(
            .settings(SettingsUpdate(user: user, changes: [.engagementNotifications: SettingValue?.none])))
        #expect(try await pipeline.settings(for: user).engagementNotifications)
    }

    /// A launch starting many users' chains reads a page's settings in one query (`Store.settings(for:)` of a
    /// list): each user's own, the defaults for one who never set any, and no user unasked.
    @Test("many users' settings read at once are each user's own settings", arguments: TestBackend.all)
    func manyUsers(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        let (ada, bo, cy) = (UserID.literal("ada"), UserID.literal("bo"), UserID.literal("cy"))
        try await pipeline.ingest(.settings(SettingsUpdate(user: ada, changes: [.reminderHour: .integer(7)])))
        try await pipeline.ingest(
            .settings(SettingsUpdate(user: bo, changes: [.weeklyInsight: .bool(false), .reminderHour: .integer(22)])))
        try await pipeline.ingest(.user(UserUpdate(id: cy)))
        let read = try await pipeline.store.settings(for: [bo, cy, ada])
        #expect(read.keys.sorted { $0.rawValue < $1.rawValue } == [ada, bo, cy])
        for user in [ada, bo, cy] {
            #expect(read[user] == (try await pipeline.settings(for: user)), "\(user)")
        }
        #expect(read[ada]?.reminderHour == 7 && read[ada]?.weeklyInsight == true)
        #expect(read[bo]?.reminderHour == 22 && read[bo]?.weeklyInsight == false)
        #expect(read[cy]?.reminderHour == 20)
        #expect(try await pipeline.store.settings(for: [bo]).keys.map(\.rawValue) == ["bo"])
    }
}
