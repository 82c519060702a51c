import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage
import TestSupport
import Testing

/// The tasks that run at a time of day on the user's clock: the nightly retrain, the daily
/// reminder and the weekly insight, through late launches, failures, forced runs, missed slots and
/// changed settings.
@Suite("Calendar tasks", .timeLimit(.minutes(10)))
struct CalendarTaskTests {
    static let losAngeles = TimeZone.iana("America/Los_Angeles")!

    func pendingRetrain(_ harness: LaunchHarness) async throws -> Date? {
        try await harness.pipeline.pendingTasks(task: PipelineTasks.mlRetrain).first?.earliestBeginDate
    }

    @Test(
        "ml-retrain keeps 03:00 on the user's clock through a late first launch, a forced run, a retry and a DST end",
        arguments: TestBackend.all)
    func retrainKeepsItsHour(backend: TestBackend) async throws {
        // 15:45 in Los Angeles: the chain starts due at once, and its successor is the user's night.
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-15T22:45:00Z"))
        try await harness.addUser("ada", timeZone: "America/Los_Angeles")
        let retrain: (inout LaunchOptions) -> Void = { $0.tasks = [PipelineTasks.mlRetrain] }
        #expect(try await harness.launch(retrain).runs.map(\.outcome) == [.success])
        #expect(try await pendingRetrain(harness) == Date(iso: "2026-03-16T10:00:00Z"))  // 03:00 PDT

        // A forced retrain in the evening does not move the night's.
        harness.clock.set(Date(iso: "2026-03-16T01:00:00Z"))
        let forced = try await harness.launch {
            retrain(&$0)
            $0.force = true
        }
        #expect(forced.runs.map(\.outcome) == [.success])
        #expect(try await pendingRetrain(harness) == Date(iso: "2026-03-16T10:00:00Z"))

        // The night's run fails; its retry a minute later succeeds, and the next night stays at 03:00.
        harness.clock.set(Date(iso: "2026-03-16T10:00:00Z"))
        harness.model.failure.withLock { $0 = .noModel("the test model fails") }
        let failed = try await harness.launch(retrain)
        harness.model.failure.withLock { $0 = nil }
        #expect(failed.runs.map(\.outcome) == [.failure])
        harness.clock.advance(by: 60)
        #expect(try await harness.launch(retrain).runs.map(\.outcome) == [.success])
        #expect(try await pendingRetrain(harness) == Date(iso: "2026-03-17T10:00:00Z"))

        // Across the end of daylight-saving time (2026-11-01): 03:00 PDT, then 03:00 PST.
        harness.clock.set(Date(iso: "2026-10-31T10:00:00Z"))
        #expect(try await harness.launch(retrain).runs.map(\.outcome) == [.success])
        #expect(try await pendingRetrain(harness) == Date(iso: "2026-11-01T11:00:00Z"))
    }

    @Test(
        "a weekly insight missed on its Sunday is sent once for that week and does not suppress the next week's",
        arguments: TestBackend.all)
    func missedWeeklyInsight(backend: TestBackend) async throws {
        // 2026-03-15 and 2026-03-22 are Sundays; the launches of Sunday the 15th never happened.
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-14T12:00:00Z"))
        try await harness.addUser("ada")
        try await harness.launch()
        let weekly: (inout LaunchOptions) -> Void = { $0.tasks = [PipelineTasks.weeklyInsight] }

        harness.clock.set(Date(iso: "2026-03-16T09:00:00Z"))
        #expect(try await harness.launch(weekly).runs.map(\.outcome) == [.success])
        #expect(try await harness.pipeline.outbox().map(\.day) == [.literal("2026-03-09")])
        // Caught up on Monday, the chain goes back to Sundays.
        let next = try await harness.pipeline.pendingTasks(task: PipelineTasks.weeklyInsight).first
        #expect(next?.earliestBeginDate == Date(iso: "2026-03-22T20:00:00Z"))
        // At most once for that week, even when run again.
        try await harness.launch {
            weekly(&$0)
            $0.force = true
        }
        #expect(try await harness.pipeline.outbox().count == 1)

        harness.clock.set(Date(iso: "2026-03-22T20:00:00Z"))
        #expect(try await harness.launch(weekly).runs.map(\.outcome) == [.success])
        #expect(try await harness.pipeline.outbox().map(\.day) == [.literal("2026-03-09"), .literal("2026-03-16")])
        #expect(harness.model.insights.count == 2)
    }

    @Test(
        "one ingestion's changes move each user's pending requests to that user's new time; users without chains get none",
        arguments: TestBackend.all)
    func changesOfManyUsersMoveTheirRequests(backend: TestBackend) async throws {
        // Sunday 2026-03-15, 12:00 UTC: every user's reminder and insight are pending for 20:00 on their clock.
        let harness = try await LaunchHarness(backend)
        let users = (0..<12).map { String(format: "user%02d", $0) }
        for user in users { try await harness.addUser(user) }
        try await harness.launch()
        // One ingestion: the even users move to Berlin, every third user asks for 07:00 (tomorrow morning), and a
        // user added now has no chain until the next launch.
        var records: [InputRecord] = [.user(UserUpdate(id: .literal("late"), timeZone: .iana("Europe/Berlin")))]
        for (index, user) in users.enumerated() {
            if index % 2 == 0 {
                records.append(.user(UserUpdate(id: .literal(user), timeZone: .iana("Europe/Berlin"))))
            }
            if index % 3 == 0 {
                records.append(.settings(SettingsUpdate(user: .literal(user), changes: [.reminderHour: .integer(7)])))
            }
        }
        try await harness.pipeline.ingest(records)
        for (index, user) in users.enumerated() {
            // The reminder's next 07:00 is tomorrow's; the insight's next Sunday 07:00 is a week away.
            let (daily, weekly): (String, String) =
                switch (index % 2 == 0, index % 3 == 0) {
                case (true, true): ("2026-03-16T06:00:00Z", "2026-03-22T06:00:00Z")  // 07:00 Berlin
                case (false, true): ("2026-03-16T07:00:00Z", "2026-03-22T07:00:00Z")  // 07:00 UTC
                case (true, false): ("2026-03-15T19:00:00Z", "2026-03-15T19:00:00Z")  // 20:00 Berlin
                case (false, false): ("2026-03-15T20:00:00Z", "2026-03-15T20:00:00Z")  // unchanged
                }
            for (task, expected) in [(PipelineTasks.engagementDaily, daily), (PipelineTasks.weeklyInsight, weekly)] {
                let pending = try await harness.pipeline.pendingTasks(user: .literal(user), task: task)
                #expect(pending.map(\.earliestBeginDate) == [Date(iso: expected)], "\(user) \(task)")
            }
        }
        #expect(try await harness.pipeline.pendingTasks(user: .literal("late")).isEmpty)
    }

    @Test(
        "a changed time zone or reminder hour moves the pending reminder and insight at once; none goes out at the old hour",
        arguments: TestBackend.all)
    func changedSettingsMovePendingRequests(backend: TestBackend) async throws {
        // Sunday 2026-03-15, 12:00 UTC: the reminder and the insight are pending for 20:00 UTC.
        let harness = try await LaunchHarness(backend)
        try await harness.addUser("ada")
        try await harness.launch()
        func pending(_ task: TaskIdentifier) async throws -> Date? {
            try await harness.pipeline.pendingTasks(task: task).first?.earliestBeginDate
        }
        #expect(try await pending(PipelineTasks.engagementDaily) == Date(iso: "2026-03-15T20:00:00Z"))

        // Berlin is UTC+1 in March: 20:00 there is 19:00 UTC.
        try await harness.pipeline.ingest(.user(UserUpdate(id: .literal("ada"), timeZone: .iana("Europe/Berlin"))))
        #expect(try await pending(PipelineTasks.engagementDaily) == Date(iso: "2026-03-15T19:00:00Z"))
        #expect(try await pending(PipelineTasks.weeklyInsight) == Date(iso: "2026-03-15T19:00:00Z"))

        // An earlier reminder hour, 18:00 Berlin.
        harness.clock.set(Date(iso: "2026-03-15T13:00:00Z"))
        try await harness.pipeline.ingest(
            .settings(SettingsUpdate(user: .literal("ada"), changes: [.reminderHour: .integer(18)])))
        #expect(try await pending(PipelineTasks.engagementDaily) == Date(iso: "2026-03-15T17:00:00Z"))
        #expect(try await pending(PipelineTasks.weeklyInsight) == Date(iso: "2026-03-15T17:00:00Z"))

        // Launches every 15 minutes until midnight UTC: one reminder and one insight, at 18:00 Berlin.
        while harness.clock.now < Date(iso: "2026-03-16T00:00:00Z") {
            try await harness.launch()
            harness.clock.advance(by: 900)
        }
        let calendar = try await harness.history().filter {
            [PipelineTasks.engagementDaily, PipelineTasks.weeklyInsight].contains($0.identifier)
        }
        #expect(calendar.map(\.startedAt) == [Date(iso: "2026-03-15T17:00:00Z"), Date(iso: "2026-03-15T17:00:00Z")])
        #expect(try await harness.pipeline.outbox().count == 2)
    }
}
