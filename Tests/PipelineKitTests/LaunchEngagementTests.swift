import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage
import TestSupport
import Testing

/// `engagement-daily`: a "log today" reminder at the user's local reminder hour, if notifications
/// are on (the registered default: DESIGN §8, bug 8) and the user has not entered anything today.
@Suite("The daily engagement reminder", .timeLimit(.minutes(10)))
struct LaunchEngagementTests {
    static let engagement: Set<TaskIdentifier> = [PipelineTasks.engagementDaily]

    /// Launches once to start the chains, then at `instant`.
    static func launch(_ harness: LaunchHarness, at instant: String) async throws -> LaunchReport {
        harness.clock.set(Date(iso: instant))
        return try await harness.launch { $0.tasks = engagement }
    }

    @Test(
        "a user who never set notifications gets a reminder at 20:00 local when nothing was entered today",
        arguments: TestBackend.all)
    func defaultOn(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        try await harness.addUser("ada")
        try await harness.launch()
        #expect(try await Self.launch(harness, at: "2026-03-15T19:59:00Z").runs.isEmpty)
        let report = try await Self.launch(harness, at: "2026-03-15T20:00:00Z")
        #expect(report.runs.map(\.reason) == ["reminder queued"])
        let message = try #require(try await harness.pipeline.outbox().first)
        #expect(message.user == .literal("ada"))
        #expect(message.kind == OutboxKind.logReminder)
        #expect(message.day == .literal("2026-03-15"))
        let next = try #require(try await harness.pipeline.pendingTasks(task: PipelineTasks.engagementDaily).first)
        #expect(next.earliestBeginDate == Date(iso: "2026-03-16T20:00:00Z"))
    }

    @Test(
        "no reminder when notifications are off, or when the user entered something today", arguments: TestBackend.all)
    func suppressed(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        try await harness.addUser("off", settings: [.engagementNotifications: .bool(false)])
        try await harness.addUser("logged")
        try await harness.addUser("synced")
        var entry = UserEntry(user: .literal("logged"), day: .literal("2026-03-15"))
        entry.mood = .set(4)
        try await harness.pipeline.ingest(.entry(entry))
        // Health data alone is not an entry from the user: they still get the reminder.
        try await harness.pipeline.ingest(
            .health(HealthMetrics(user: .literal("synced"), day: .literal("2026-03-15"), stepCount: 5000)))
        try await harness.launch()
        let report = try await Self.launch(harness, at: "2026-03-15T20:05:00Z")
        let reasons = Dictionary(uniqueKeysWithValues: report.runs.map { ($0.scope.description, $0.reason ?? "") })
        #expect(
            reasons == [
                "off": "engagement notifications are off", "logged": "today already has an entry",
                "synced": "reminder queued",
            ])
        #expect(try await harness.pipeline.outbox().map(\.user) == [.literal("synced")])
    }

    @Test(
        "the reminder follows the user's time zone and reminder hour, and its day is the user's local day",
        arguments: TestBackend.all)
    func timeZoneAndHour(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        try await harness.addUser("ny", timeZone: "America/New_York")
        try await harness.addUser("early", timeZone: "Asia/Tokyo", settings: [.reminderHour: .integer(7)])
        try await harness.launch()
        let pending = try await harness.pipeline.pendingTasks(task: PipelineTasks.engagementDaily)
        let dates = Dictionary(uniqueKeysWithValues: pending.map { ($0.scope.description, $0.earliestBeginDate) })
        // 20:00 EDT on March 15 is 00:00Z on March 16; 07:00 JST on March 16 is 22:00Z on March 15.
        #expect(dates["ny"] == Date(iso: "2026-03-16T00:00:00Z"))
        #expect(dates["early"] == Date(iso: "2026-03-15T22:00:00Z"))

        let tokyo = try await Self.launch(harness, at: "2026-03-15T22:00:00Z")
        #expect(tokyo.runs.map(\.scope) == [.user(.literal("early"))])
        let newYork = try await Self.launch(harness, at: "2026-03-16T00:00:00Z")
        #expect(newYork.runs.map(\.scope) == [.user(.literal("ny"))])
        let days = try await harness.pipeline.outbox().map { "\($0.user) \($0.day)" }
        #expect(days == ["early 2026-03-16", "ny 2026-03-15"])
    }

    @Test("across the daylight-saving change the reminder stays at 20:00 local time", arguments: TestBackend.all)
    func daylightSaving(backend: TestBackend) async throws {
        // Europe/Berlin moves from UTC+1 to UTC+2 on 2026-03-29.
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-27T12:00:00Z"))
        try await harness.addUser("ada", timeZone: "Europe/Berlin")
        try await harness.launch()
        var times: [Date] = []
        for _ in 0..<4 {
            let next = try #require(
                try await harness.pipeline.pendingTasks(task: PipelineTasks.engagementDaily).first?.earliestBeginDate)
            times.append(next)
            harness.clock.set(next)
            #expect(try await harness.launch { $0.tasks = Self.engagement }.runs.count == 1)
        }
        #expect(
            times == [
                Date(iso: "2026-03-27T19:00:00Z"), Date(iso: "2026-03-28T19:00:00Z"),
                Date(iso: "2026-03-29T18:00:00Z"), Date(iso: "2026-03-30T18:00:00Z"),
            ])
        #expect(try await harness.pipeline.outbox().count == 4)
    }

    @Test(
        "on the day before a southern fall-back the reminder comes at the reminder hour, 23:00 included",
        arguments: TestBackend.all)
    func southernFallBack(backend: TestBackend) async throws {
        // Sydney and Auckland leave summer time at 03:00 on 2026-04-05. Before the fix the 20:00
        // reminders were due at 21:00, and the 23:00 one at 00:00 on the 5th, where the run took it for
        // the 5th's and sent nothing: no reminder at all on the 4th.
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-04-03T12:00:00Z"))
        try await harness.addUser("sydney", timeZone: "Australia/Sydney")
        try await harness.addUser("late", timeZone: "Australia/Sydney", settings: [.reminderHour: .integer(23)])
        try await harness.addUser("auckland", timeZone: "Pacific/Auckland")
        // At 12:00Z on the 3rd it is already the 4th in Auckland, and 23:00 on the 3rd in Sydney.
        try await harness.launch()
        let pending = try await harness.pipeline.pendingTasks(task: PipelineTasks.engagementDaily)
        let dates = Dictionary(uniqueKeysWithValues: pending.map { ($0.scope.description, $0.earliestBeginDate) })
        // 20:00 AEDT (UTC+11), 23:00 AEDT and 20:00 NZDT (UTC+13) on 2026-04-04.
        #expect(dates["sydney"] == Date(iso: "2026-04-04T09:00:00Z"))
        #expect(dates["late"] == Date(iso: "2026-04-04T12:00:00Z"))
        #expect(dates["auckland"] == Date(iso: "2026-04-04T07:00:00Z"))
        for instant in ["2026-04-04T07:00:00Z", "2026-04-04T09:00:00Z", "2026-04-04T12:00:00Z"] {
            #expect(try await Self.launch(harness, at: instant).runs.map(\.reason) == ["reminder queued"])
        }
        let sent = try await harness.pipeline.outbox().filter { $0.day == .literal("2026-04-04") }
        #expect(Set(sent.map(\.user.rawValue)) == ["sydney", "late", "auckland"])
    }

    @Test(
        "on Los Angeles's spring-forward day a morning reminder comes at its local hour", arguments: TestBackend.all)
    func springForwardMorning(backend: TestBackend) async throws {
        // 2026-03-08 02:00 PST jumps to 03:00 PDT; 08:00 PDT is 15:00Z (it was 16:00Z, 09:00 local).
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-07T20:00:00Z"))
        try await harness.addUser("la", timeZone: "America/Los_Angeles", settings: [.reminderHour: .integer(8)])
        try await harness.launch()
        let next = try await harness.pipeline.pendingTasks(task: PipelineTasks.engagementDaily).first
        #expect(next?.earliestBeginDate == Date(iso: "2026-03-08T15:00:00Z"))
        #expect(try await Self.launch(harness, at: "2026-03-08T15:00:00Z").runs.map(\.reason) == ["reminder queued"])
    }

    @Test("running the task again on the same day queues no second reminder", arguments: TestBackend.all)
    func rerunSendsOnce(backend: TestBackend) async throws {
        let harness = try await LaunchHarness(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        try await harness.addUser("ada")
        try await harness.launch()
        _ = try await Self.launch(harness, at: "2026-03-15T20:00:00Z")
        harness.clock.set(Date(iso: "2026-03-15T21:00:00Z"))
        let again = try await harness.launch {
            $0.tasks = Self.engagement
            $0.force = true
        }
        #expect(again.runs.map(\.reason) == ["today's reminder was already queued"])
        #expect(try await harness.pipeline.outbox().count == 1)
    }
}
