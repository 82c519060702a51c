import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage
import TestSupport
import Testing

@testable import PipelineCLI

/// The crontab that `scripts/install-cron.sh` prints and the README shows, replayed with `--now`
/// over days that change the clocks in some of the users' zones: `pipeline run` every 15 minutes
/// and `pipeline retrain` at 03:00 (the server's clock, UTC). Each line must find its work when it
/// fires.
@Suite("The crontab, replayed", .timeLimit(.minutes(10)))
struct CronReplayTests {
    /// Zones on both sides of UTC, with half- and quarter-hour offsets, and two that leave
    /// daylight-saving time on 2026-04-05.
    static let zones = [
        "UTC", "America/Los_Angeles", "Europe/Berlin", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Sydney",
        "Pacific/Auckland",
    ]

    @Test("run every 15 minutes sends each reminder at 20:00 local; retrain at 03:00 finds every user's retrain due")
    func crontab() async throws {
        let start = Date(iso: "2026-04-03T00:00:00Z")
        let end = Date(iso: "2026-04-06T00:00:00Z")
        let database = TestDatabase(now: start)
        let pipeline = try await database.open()
        let users = Self.zones.enumerated().map { index, zone in (UserID.literal("user-\(index)"), zone) }
        try await pipeline.ingest(users.map { .user(UserUpdate(id: $0.0, timeZone: .iana($0.1))) })

        var retrainFires: [Date] = []
        var now = start
        while now < end {
            let stamp = ISO8601Instant.string(from: now)
            let run = await runCLI(["run", "--db", database.path, "--now", stamp, "--jobs", "1"])
            #expect(run.status == 0, "run at \(stamp): \(run.stderr)")
            if Day(containing: now, in: .utc).localTime(hour: 3, in: .utc) == now {
                let retrain = await runCLI(["retrain", "--db", database.path, "--now", stamp, "--jobs", "1"])
                #expect(retrain.status == 0, "retrain at \(stamp): \(retrain.stderr)")
                retrainFires.append(now)
            }
            now += 15 * 60
        }

        let history = try await pipeline.taskHistory()
        #expect(history.allSatisfy { $0.outcome == .success })
        // Every retrain fire retrained every user, once; `run` retrained no one.
        let retrains = history.filter { $0.identifier == PipelineTasks.mlRetrain }
        #expect(retrainFires.count == 3)
        for fire in retrainFires {
            let users = retrains.filter { $0.startedAt == fire }.map(\.scope)
            #expect(users.count == Self.zones.count, "retrain at \(fire): \(users)")
            #expect(Set(users).count == users.count)
        }
        #expect(retrains.count == 3 * Self.zones.count)

        // Each reminder at the first launch at or after 20:00 on the user's clock, once a local day.
        for (user, name) in users {
            let zone = try #require(TimeZone.iana(name))
            var expected: [Date] = []
            var day = Day(containing: start, in: zone)
            while day.localTime(hour: 20, in: zone) < end {
                let instant = day.localTime(hour: 20, in: zone)
                if instant >= start { expected.append(instant) }
                day = day.adding(days: 1)
            }
            let reminders = history.filter { $0.identifier == PipelineTasks.engagementDaily && $0.scope == .user(user) }
            #expect(reminders.map(\.startedAt) == expected, "\(name)")
        }
    }
}
