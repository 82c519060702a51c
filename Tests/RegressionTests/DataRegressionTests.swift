import Foundation
import PipelineKit
import TestSupport
import Testing

@testable import Storage

/// The data bugs the original iOS app shipped (DESIGN §8, bugs 4–9). Each test names its bug and
/// says how it was checked to fail when the bug is put back.
@Suite("Regressions: data", .timeLimit(.minutes(10)))
struct DataRegressionTests {
    static let ada = UserID.literal("ada")
    static let day = Day.literal("2026-03-10")

    /// Bug 4: sync overwrote user-entered values.
    ///
    /// Checked: with `Store.upsertDay` changed so a health reading always replaces the stored value
    /// (`THEN ?14` without the `NOT (… 'user' …)` guard), this test fails on every field.
    @Test("bug 4: a health sync never overwrites a value the user entered, in either order", arguments: TestBackend.all)
    func syncNeverOverwritesUserValues(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        var entry = UserEntry(user: Self.ada, day: Self.day)
        entry.sleepDuration = .set(21_600)
        entry.stepCount = .set(3_000)
        entry.hrv = .set(35)
        entry.restingHeartRate = .set(58)
        let sync = HealthMetrics(
            user: Self.ada, day: Self.day, hrv: 70, restingHeartRate: 66, stepCount: 9_000, sleepDuration: 28_800)
        // User first, then two syncs (a morning and an evening one).
        try await pipeline.ingest(.entry(entry))
        try await pipeline.ingest(.health(sync))
        try await pipeline.ingest(.health(sync))
        // Sync first, then the user, then another sync.
        var later = entry
        later.day = Self.day.adding(days: 1)
        var laterSync = sync
        laterSync.day = later.day
        try await pipeline.ingest(.health(laterSync))
        try await pipeline.ingest(.entry(later))
        try await pipeline.ingest(.health(laterSync))
        for day in [Self.day, later.day] {
            let log = try #require(try await pipeline.dailyLog(user: Self.ada, day: day))
            #expect(log.sleepDuration == Sourced(21_600, .user))
            #expect(log.stepCount == Sourced(3_000, .user))
            #expect(log.hrv == Sourced(35, .user))
            #expect(log.restingHeartRate == Sourced(58, .user))
        }

        // At once: the user and two syncs, each on its own connection, over 30 earlier days in their
        // own orders. The user leaves the resting heart rate to the watch, so each day's one row
        // holds the user's three values and the sync's fourth, whoever committed first.
        let days = (1...30).map { Self.day.adding(days: -$0) }
        let userEntry = entry
        let writers = try await withThrowingTaskGroup(of: Pipeline.self) { group in
            for _ in 0..<3 { group.addTask { try await database.open() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    for day in days.shuffled() {
                        if index == 0 {
                            var concurrent = userEntry
                            concurrent.day = day
                            concurrent.restingHeartRate = .unchanged
                            try await writer.ingest(.entry(concurrent))
                        } else {
                            var concurrent = sync
                            concurrent.day = day
                            try await writer.ingest(.health(concurrent))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let logs = try await pipeline.dailyLogs(user: Self.ada, through: days[0])
        #expect(logs.map(\.day) == days.reversed())
        for log in logs {
            #expect(log.sleepDuration == Sourced(21_600, .user), "\(log.day)")
            #expect(log.stepCount == Sourced(3_000, .user), "\(log.day)")
            #expect(log.hrv == Sourced(35, .user), "\(log.day)")
            #expect(log.restingHeartRate == Sourced(66, .health), "\(log.day)")
        }
    }

    /// Bug 5: duplicate rows for one day polluted training data, also under concurrent writers.
    ///
    /// Checked: with the primary key removed from `daily_logs` in a scratch copy of 0001 and the
    /// upsert's ON CONFLICT clause removed (a plain INSERT, as the app did), 160 rows were stored
    /// for 40 days and this test fails.
    @Test(
        "bug 5: concurrent writers on separate connections leave exactly one row per user and day",
        arguments: TestBackend.all)
    func oneRowPerDay(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let days = (0..<40).map { Self.day.adding(days: -$0) }
        // Every writer is connected before any writes, so their writes overlap.
        let pipelines = try await withThrowingTaskGroup(of: Pipeline.self) { group in
            for _ in 0..<4 { group.addTask { try await database.open() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (writer, pipeline) in pipelines.enumerated() {
                group.addTask {
                    for day in days.shuffled() {
                        // Each writer its own field: two user entries, two health syncs.
                        switch writer {
                        case 0:
                            var entry = UserEntry(user: Self.ada, day: day)
                            entry.symptomSeverity = .set(4)
                            try await pipeline.ingest(.entry(entry))
                        case 1:
                            try await pipeline.ingest(
                                .health(HealthMetrics(user: Self.ada, day: day, stepCount: 1_000)))
                        case 2:
                            var entry = UserEntry(user: Self.ada, day: day)
                            entry.mood = .set(2)
                            try await pipeline.ingest(.entry(entry))
                        default:
                            try await pipeline.ingest(.health(HealthMetrics(user: Self.ada, day: day, hrv: 45)))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let store = try Store(path: database.path, clock: database.clock)
        let logs = try await store.dailyLogs(user: Self.ada)
        #expect(logs.count == days.count)
        #expect(Set(logs.map(\.day)).count == logs.count)
        #expect(try await store.summary().dailyLogs == days.count)
        // The one row of each day holds what all four wrote.
        for log in logs {
            #expect(log.symptomSeverity == 4 && log.mood == 2, "\(log.day)")
            #expect(log.stepCount == Sourced(1_000, .health) && log.hrv == Sourced(45, .health), "\(log.day)")
        }
    }

    /// Bug 6: a future-dated row was taken for today.
    ///
    /// Checked: with `Pipeline.today(for:)` returning the latest stored row instead of the row of
    /// the user's calendar day, this test fails.
    @Test("bug 6: a row dated tomorrow is not today's, in the user's own time zone", arguments: TestBackend.all)
    func futureRowIsNotToday(backend: TestBackend) async throws {
        // 23:30 UTC on the 10th: already the 11th in Berlin.
        let database = TestDatabase(backend, now: Date(iso: "2026-03-10T23:30:00Z"))
        let pipeline = try await database.open()
        try await pipeline.ingest(.user(UserUpdate(id: Self.ada, timeZone: TimeZone.iana("Europe/Berlin"))))
        var tomorrow = UserEntry(user: Self.ada, day: .literal("2026-03-12"))
        tomorrow.symptomSeverity = .set(9)
        try await pipeline.ingest(.entry(tomorrow))
        let today = try await pipeline.today(for: Self.ada)
        #expect(today.day == .literal("2026-03-11"))
        #expect(today.log == nil)
        var tooFar = UserEntry(user: Self.ada, day: .literal("2026-03-13"))
        tooFar.symptomSeverity = .set(2)
        await #expect(throws: PipelineError.self) { try await pipeline.ingest(.entry(tooFar)) }
    }

    /// Bug 7: the schema must load — fresh, from every earlier version, and a newer database fails
    /// clearly without being changed.
    ///
    /// Checked: with the migrator's newer-version check disabled (`if false, found > latestVersion`),
    /// opening the newer database succeeds and this test fails.
    @Test(
        "bug 7: the schema loads fresh and from every earlier version; a newer database is refused unchanged",
        arguments: TestBackend.all)
    func schemaLoads(backend: TestBackend) async throws {
        for version in 0..<Store.latestSchemaVersion {
            let database = TestDatabase(backend)
            if version > 0 {
                // A day as that version's statements left it, in SQL every version reads.
                let old = try Store(path: database.path, clock: database.clock, schemaVersion: version)
                try await old.executeForTesting(
                    """
                    INSERT INTO users (id, time_zone, created_at) VALUES ('ada', 'UTC', 0);
                    INSERT INTO daily_logs (user_id, day, step_count, step_count_source, updated_at)
                    VALUES ('ada', '\(Self.day)', 1234, 'health', 0)
                    """)
            }
            let store = try Store(path: database.path, clock: database.clock)
            #expect(try await store.schemaVersion() == Store.latestSchemaVersion)
            if version > 0 {
                #expect(try await store.dailyLog(user: Self.ada, day: Self.day)?.stepCount == Sourced(1234, .health))
            }
        }
        let database = TestDatabase(backend)
        do {
            let store = try Store(path: database.path, clock: database.clock)
            try await store.executeForTesting(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(Store.latestSchemaVersion + 1), 'next', 0)"
            )
        }
        // Unchanged: the SQLite file byte for byte; on PostgreSQL, every table and row of the schema.
        let before = try Store.contentsForTesting(at: database.path)
        if backend == .postgresql { #expect(before.contains { $0.contains("next") }) }
        // Clearly: the newer-schema error, naming both versions and saying what to do — not any error.
        #expect {
            _ = try Store(path: database.path, clock: database.clock)
        } throws: { error in
            guard case StorageError.newerSchema(_, let found, let supported) = error else { return false }
            return found == Store.latestSchemaVersion + 1 && supported == Store.latestSchemaVersion
                && "\(error)".contains("upgrade pipeline") && "\(error)".contains("was not changed")
        }
        #expect(try Store.contentsForTesting(at: database.path) == before)
    }

    /// Bug 8: notifications defaulted to off because an unset boolean reads false.
    ///
    /// Checked: with `UserSettings(stored:)` starting from `false`/`0` instead of the registered
    /// defaults, this test fails.
    @Test(
        "bug 8: a setting never written reads as its registered default, so notifications are on",
        arguments: TestBackend.all)
    func notificationsDefaultOn(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        try await pipeline.ingest(.user(UserUpdate(id: Self.ada)))
        #expect(try await pipeline.settings(for: Self.ada).engagementNotifications)
        // Writing another key must not turn the unset one off.
        try await pipeline.ingest(.settings(SettingsUpdate(user: Self.ada, changes: [.reminderHour: .integer(8)])))
        let settings = try await pipeline.settings(for: Self.ada)
        #expect(settings.engagementNotifications)
        #expect(settings.weeklyInsight)
        #expect(settings.reminderHour == 8)
    }

    /// Bug 9: draining the watch queue deleted items of the other kind.
    ///
    /// Checked: with the drain's page query not filtered by kind (`WHERE kind = ?1` dropped), the
    /// health check-in and the unknown item are consumed or failed while draining symptom logs, and
    /// this test fails.
    @Test(
        "bug 9: draining one kind of watch item leaves the other kind and unknown kinds queued",
        arguments: TestBackend.all)
    func drainKeepsOtherKinds(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        let store = pipeline.store
        let now = database.clock.now
        try await store.enqueue(
            WatchSubmission(
                user: Self.ada, kind: "symptomLog", payload: #"{"day":"2026-03-10","symptomSeverity":4}"#,
                enqueuedAt: now))
        try await store.enqueue(
            WatchSubmission(
                user: Self.ada, kind: "healthCheckIn", payload: #"{"day":"2026-03-10","mood":2}"#, enqueuedAt: now))
        try await store.enqueue(
            WatchSubmission(user: Self.ada, kind: "fromTheFuture", payload: #"{"anything":true}"#, enqueuedAt: now))
        let report = try await pipeline.drainWatchQueue(kinds: [.symptomLog])
        #expect(report.applied == ["symptomLog": 1])
        let left = try await store.allWatchItems()
        #expect(left.map(\.kind).sorted() == ["fromTheFuture", "healthCheckIn"])
        #expect(left.allSatisfy { $0.attempts == 0 })
        #expect(try await pipeline.dailyLog(user: Self.ada, day: Self.day)?.mood == nil)
    }
}
