import Domain
import Foundation
import Ingestion
import TestSupport
import Testing

@testable import PipelineKit
@testable import Storage

/// An ingestion merges a known watch item read among its day's records into the day as it stores it, and
/// queues the item only when the drain could apply something of the same day before it; otherwise the item is
/// withheld from the queue and a later record of its day leaves its fields alone. The rows must end as if every
/// item had only been queued and drained after the whole input.
@Suite("Watch items merged into their day")
struct WatchMergeTests {
    static let now = Date(iso: "2026-03-15T12:00:00Z")
    static let ada = UserID.literal("ada")

    static func line(_ type: String, _ day: Day, _ fields: String) -> String {
        #"{"type":"\#(type)","user":"ada","day":"\#(day)",\#(fields)}"#
    }

    static func checkIn(_ day: Day, _ fields: String) -> String {
        #"{"type":"watch","user":"ada","kind":"healthCheckIn","payload":{"day":"\#(day)",\#(fields)}}"#
    }

    static func ingest(_ lines: [String], into pipeline: Pipeline) async throws -> IngestReport {
        // Each line ends in a newline, as in a file: the day read last is then not written before the input ends.
        try await pipeline.ingestJSONLines(bytes: Array(lines.map { $0 + "\n" }.joined().utf8)) { error in
            Issue.record("rejected: \(error)")
        }
    }

    @Test("the planner carries an item read among its day's records, and no other, with the day")
    func plannerMergesOnlyItsDaysItems() throws {
        let day = Day.literal("2026-03-10")
        func watch(_ kind: String, _ payload: String) -> InputRecord {
            .watch(WatchSubmission(user: Self.ada, kind: kind, payload: payload, enqueuedAt: Self.now))
        }
        var entry = UserEntry(user: Self.ada, day: day)
        entry.mood = .set(3)
        var planner = IngestPlanner(decoder: nil, now: Self.now, zones: StoredZones(), queueHadKnownItems: false)
        var output: [PlannedWrite] = []
        let records: [InputRecord] = [
            watch("healthCheckIn", #"{"day":"2026-03-10","mood":1}"#),  // before the day's first record
            .entry(entry),
            watch("healthCheckIn", #"{"day":"2026-03-10","mood":5,"energy":2}"#),  // merged
            watch("healthCheckIn", #"{"day":"2026-03-09","mood":4}"#),  // another day
            watch("sleepQuality", #"{"day":"2026-03-10","score":4}"#),  // a kind this version does not apply
            .health(HealthMetrics(user: Self.ada, day: day, hrv: 50)),
            watch("symptomLog", #"{"day":"2026-03-10","symptomSeverity":7}"#),  // merged
        ]
        for (index, record) in records.enumerated() { planner.plan(record, line: index + 1, into: &output) }
        planner.finish(into: &output)
        let batches = output.compactMap { planned -> PlannedDays? in
            if case .days(let days) = planned { return days }
            return nil
        }
        let days = try #require(batches.first)
        #expect(batches.count == 1 && days.count == 1)
        #expect(days.lines.first.map { $0.map(\.number) } == [2, 6])
        #expect(days.merges.map(\.index) == [0])
        #expect(days.merges.first?.items.map(\.line) == [3, 7])
        // The day as stored: its entry's mood 3, then the two items merged after its records.
        #expect(days.merges.first?.unmerged.entry.mood == .set(3))
        #expect(days.writes.first?.entry.mood == .set(5))
        #expect(days.writes.first?.entry.energy == .set(2))
        #expect(days.writes.first?.entry.symptomSeverity == .set(7))
        #expect(days.writes.first?.health.hrv == 50)
        // The first item of the day was queued, and the drain applies it after the whole input: the merged
        // ones are queued too, to be applied after it.
        #expect(output.filter { if case .record(.watch, _) = $0 { true } else { false } }.count == 5)
        #expect(days.merges.first?.items.allSatisfy { $0.withheld == nil } == true)
    }

    @Test("the planner withholds a merged item unless its day's item was queued before; later records leave it")
    func plannerWithholdsMergedItems() throws {
        let day = Day.literal("2026-03-10")
        let other = Day.literal("2026-03-11")
        func watch(_ day: Day, _ fields: String) -> InputRecord {
            .watch(
                WatchSubmission(
                    user: Self.ada, kind: "healthCheckIn", payload: #"{"day":"\#(day)",\#(fields)}"#,
                    enqueuedAt: Self.now))
        }
        func entry(_ day: Day, mood: Patch<Int>, steps: Int? = nil) -> InputRecord {
            var entry = UserEntry(user: Self.ada, day: day)
            entry.mood = mood
            if let steps { entry.stepCount = .set(steps) }
            return .entry(entry)
        }
        func plan(_ records: [InputRecord], queueHadKnownItems: Bool) -> (days: [PlannedDays], queued: [Int]) {
            var planner = IngestPlanner(
                decoder: nil, now: Self.now, zones: StoredZones(), queueHadKnownItems: queueHadKnownItems)
            var output: [PlannedWrite] = []
            for (index, record) in records.enumerated() { planner.plan(record, line: index + 1, into: &output) }
            planner.finish(into: &output)
            var days: [PlannedDays] = []
            var queued: [Int] = []
            for planned in output {
                switch planned {
                case .days(let batch): days.append(batch)
                case .record(.watch, let line): queued.append(line)
                default: break
                }
            }
            return (days, queued)
        }
        let records: [InputRecord] = [
            entry(day, mood: .set(3)),
            watch(day, #""mood":5,"energy":2"#),  // merged and withheld
            watch(other, #""mood":4"#),  // not among its day's records: queued
            entry(other, mood: .set(2)),
            watch(other, #""energy":3"#),  // merged, but an item of its day was queued before it: queued too
            entry(day, mood: .clear, steps: 9_000),  // the first day again: its mood and energy stay the item's
            watch(day, #""energy":1"#),  // merged into the day again, and withheld again
        ]
        let planned = plan(records, queueHadKnownItems: false)
        let days = try #require(planned.days.first)
        #expect(planned.queued == [3, 5])
        #expect(days.records == 3 + 2)
        #expect(days.writes.map(\.day) == [day, other, day])
        #expect(days.merges.map(\.index) == [0, 1, 2])
        #expect(days.merges.map { $0.items.map { $0.withheld != nil } } == [[true], [false], [true]])
        #expect(days.writes[0].entry.mood == .set(5))
        #expect(days.writes[2].entry.mood == .unchanged)
        #expect(days.writes[2].entry.stepCount == .set(9_000))
        #expect(days.writes[2].entry.energy == .set(1))
        #expect(days.merges[2].unmerged.entry.mood == .unchanged)

        // A queue that held an item of a known kind as the input began: every item is queued, in order.
        let behind = plan(records, queueHadKnownItems: true)
        #expect(behind.queued == [2, 3, 5, 7])
        #expect(behind.days.first?.writes[2].entry.mood == .clear)
    }

    @Test(
        "a generated cohort ends as when its watch items were only queued and drained after its days",
        arguments: TestBackend.all)
    func cohortEndsAsQueued(backend: TestBackend) async throws {
        let generator = CohortGenerator(users: 8, days: 120, seed: 21, now: Self.now)
        let lines = generator.jsonLines.split(separator: "\n").map(String.init)
        let watchLines = lines.filter { $0.hasPrefix(#"{"type":"watch""#) }
        #expect(watchLines.count > 40)

        let merged = TestDatabase(backend, now: Self.now)
        let mergedPipeline = try await merged.open()
        let report = try await Self.ingest(lines, into: mergedPipeline)
        #expect(report.drained.appliedCount == watchLines.count)
        // Each item follows its day's records in a generated cohort: every one was stored with its day.
        #expect(report.storedWithDay.values.reduce(0, +) == watchLines.count)
        #expect(report.stored["watch"] == watchLines.count)

        // The items in an input of their own: no day to merge into, so each is applied by its drain only.
        let queued = TestDatabase(backend, now: Self.now)
        let queuedPipeline = try await queued.open()
        _ = try await Self.ingest(lines.filter { !$0.hasPrefix(#"{"type":"watch""#) }, into: queuedPipeline)
        let drained = try await Self.ingest(watchLines, into: queuedPipeline)
        #expect(drained.drained.appliedCount == watchLines.count)

        for user in try await queuedPipeline.users() {
            let expected = try await queuedPipeline.dailyLogs(user: user.id)
            #expect(try await mergedPipeline.dailyLogs(user: user.id) == expected, "\(user.id)")
        }
        #expect(try await mergedPipeline.summary().watchItemsByKind.isEmpty)
    }

    @Test(
        "a merged item still wins over a later record of its day, withheld or queued and drained after the input",
        arguments: TestBackend.all, [false, true])
    func mergedItemWinsOverLaterRecord(backend: TestBackend, queueHeldItem: Bool) async throws {
        let database = TestDatabase(backend, now: Self.now)
        let pipeline = try await database.open()
        if queueHeldItem {
            // An item of another day queued before the input: every merged item is queued too, and its drain
            // applies it again after the later records, 40 to a statement.
            _ = try await Self.ingest([Self.line("entry", Day.literal("2025-12-01"), #""mood":2"#)], into: pipeline)
            _ = try await pipeline.store.enqueue(
                WatchSubmission(
                    user: Self.ada, kind: "healthCheckIn", payload: #"{"day":"2025-12-01","mood":4}"#,
                    enqueuedAt: Self.now))
        }
        let days = (0..<40).map { Day.literal("2026-01-01").adding(days: $0) }
        var lines: [String] = []
        for day in days {
            lines.append(Self.line("entry", day, #""mood":3,"sleepDuration":25000"#))
            lines.append(Self.checkIn(day, #""mood":5,"energy":2"#))
            lines.append(Self.line("health", day, #""hrv":50,"sleepDuration":27000"#))
        }
        // Later in the input, each day's mood again (set, or cleared), and nothing else: the item must still win.
        for (index, day) in days.enumerated() {
            lines.append(Self.line("entry", day, index % 2 == 0 ? #""mood":1"# : #""mood":null"#))
        }
        let report = try await Self.ingest(lines, into: pipeline)
        #expect(report.drained.applied == ["healthCheckIn": queueHeldItem ? 41 : 40])
        #expect(report.storedWithDay == (queueHeldItem ? [:] : ["healthCheckIn": 40]))
        let logs = try await pipeline.dailyLogs(user: Self.ada, from: days.first)
        #expect(logs.count == 40)
        for log in logs {
            #expect(log.mood == 5, "\(log.day)")
            #expect(log.energy == 2, "\(log.day)")
            #expect(log.hrv == Sourced(50, .health), "\(log.day)")
            #expect(log.sleepDuration == Sourced(25_000, .user), "\(log.day)")
        }
    }

    @Test(
        "with an item of a known kind queued before the input, a merged item is queued behind it, and wins",
        arguments: TestBackend.all)
    func itemQueuedBeforeInputAppliesFirst(backend: TestBackend) async throws {
        let database = TestDatabase(backend, now: Self.now)
        let pipeline = try await database.open()
        let day = Day.literal("2026-03-10")
        _ = try await Self.ingest([Self.line("entry", day, #""mood":2"#)], into: pipeline)
        _ = try await pipeline.store.enqueue(
            WatchSubmission(
                user: Self.ada, kind: "healthCheckIn", payload: #"{"day":"2026-03-10","mood":1,"energy":1}"#,
                enqueuedAt: Self.now))
        let report = try await Self.ingest(
            [Self.line("entry", day, #""mood":3"#), Self.checkIn(day, #""mood":5"#)], into: pipeline)
        #expect(report.drained.applied == ["healthCheckIn": 2])
        let log = try #require(try await pipeline.dailyLog(user: Self.ada, day: day))
        #expect(log.mood == 5)
        #expect(log.energy == 1)
        #expect(try await pipeline.summary().watchItemsByKind.isEmpty)
    }

    @Test("a merged day the database refuses is stored as its records alone left it, and its item still applies")
    func refusedMergedDayFallsBack() async throws {
        let database = TestDatabase(.sqlite, now: Self.now)
        let pipeline = try await database.open()
        // A rule only this database has: no new day with mood 5. An update may set it.
        let connection = try Connection(path: database.path)
        try connection.execute(
            """
            CREATE TRIGGER no_new_mood_5 AFTER INSERT ON daily_logs WHEN NEW.mood = 5
            BEGIN SELECT RAISE(ABORT, 'no new day with mood 5'); END
            """)
        let day = Day.literal("2026-03-10")
        let other = Day.literal("2026-03-11")
        func entry(_ day: Day, mood: Int? = nil, sleep: Double? = nil) -> InputRecord {
            var entry = UserEntry(user: Self.ada, day: day)
            if let mood { entry.mood = .set(mood) }
            if let sleep { entry.sleepDuration = .set(sleep) }
            return .entry(entry)
        }
        // One call: one batch, whose days are staged together.
        let report = try await pipeline.ingest([
            entry(day, mood: 3, sleep: 25_000),
            .watch(
                WatchSubmission(
                    user: Self.ada, kind: "healthCheckIn", payload: #"{"day":"2026-03-10","mood":5,"energy":2}"#,
                    enqueuedAt: Self.now)),
            .health(HealthMetrics(user: Self.ada, day: day, hrv: 50)),
            entry(other, mood: 2),
            // The same day again: staged after the refused one, so staged again after its fallback.
            entry(day, sleep: 26_000),
        ])
        #expect(report.rejected == 0)
        #expect(report.stored["entry"] == 3)
        #expect(report.drained.applied == ["healthCheckIn": 1])
        let log = try #require(try await pipeline.dailyLog(user: Self.ada, day: day))
        #expect(log.mood == 5)
        #expect(log.energy == 2)
        #expect(log.hrv == Sourced(50, .health))
        #expect(log.sleepDuration == Sourced(26_000, .user))
        #expect(try await pipeline.dailyLog(user: Self.ada, day: other)?.mood == 2)
    }
}
