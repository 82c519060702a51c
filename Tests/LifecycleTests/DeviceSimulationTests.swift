import Foundation
import Lifecycle
import PipelineKit
import Scheduling
import Testing

/// The device simulation drives the pipeline's real scheduler; every count here is read from the
/// apps' run histories.
@Suite("A phone running the scheduler for weeks")
struct DeviceSimulationTests {
    static let month = DeviceSimulation(days: 30, seed: 1)

    @Test("with the launch chain ml-retrain runs on most days; the register-only app never runs anything")
    func sideBySide() async throws {
        let report = try await Self.month.run()
        let chain = report.app(.launchChain)
        let registerOnly = report.app(.registerOnly)

        #expect(report.retrainDays(.launchChain).count >= 20)
        #expect(!chain.successfulRuns(of: PipelineTasks.healthRefresh).isEmpty)

        #expect(registerOnly.history.isEmpty)
        #expect(registerOnly.launches.isEmpty)
        #expect(report.retrainDays(.registerOnly).isEmpty)
        #expect(Set(registerOnly.neverSubmitted) == Set(PipelineTasks.identifiers))
    }

    @Test(
        "iOS allows one pending refresh request per app: two of the three refresh chains never start, no reminder goes out"
    )
    func oneRefreshRequest() async throws {
        let report = try await Self.month.run()
        let chain = report.app(.launchChain)
        // health-refresh is registered first and keeps the one place; it resubmits itself as it
        // runs (a running request is no longer pending), so the others never find room.
        #expect(chain.successfulRuns(of: PipelineTasks.healthRefresh).count >= 30)
        #expect(chain.successfulRuns(of: PipelineTasks.engagementDaily).isEmpty)
        #expect(chain.successfulRuns(of: PipelineTasks.weeklyInsight).isEmpty)
        #expect(Set(chain.neverSubmitted) == [PipelineTasks.engagementDaily, PipelineTasks.weeklyInsight])
        #expect(chain.remindersDelivered == 0)
        #expect(report.lines.last { $0.hasPrefix("with launch chain:") }?.contains("0 reminders delivered") == true)
    }

    @Test("a retrain whose work outlasts its 10-minute budget expires every night and never counts as a retrain")
    func retrainOutlastsBudget() async throws {
        var device = Self.month
        device.retrainDuration = 15 * 60
        let report = try await device.run()
        let retrains = report.app(.launchChain).history.filter { $0.identifier == PipelineTasks.mlRetrain }
        #expect(retrains.count >= 20)
        #expect(retrains.allSatisfy { $0.outcome == .expired && $0.finishedAt == $0.startedAt.addingTimeInterval(600) })
        #expect(report.retrainDays(.launchChain).isEmpty)
    }

    @Test("the system ends a retrain early on memory pressure: the run expires at that instant, and is retried")
    func memoryPressureEndsRetrain() async throws {
        // Nine-minute retrains over four months: some nights a memory-pressure event falls inside one.
        var device = DeviceSimulation(days: 120, seed: 1)
        device.retrainDuration = 9 * 60
        let report = try await device.run()
        let chain = report.app(.launchChain)
        let pressure = chain.interruptions.filter { $0.cause == .memoryPressure }
        #expect(!pressure.isEmpty)
        for interruption in pressure {
            let run = chain.history.first {
                $0.identifier == PipelineTasks.mlRetrain && $0.finishedAt == interruption.at
            }
            #expect(run?.outcome == .expired, "\(interruption)")
            #expect(run.map { interruption.at < $0.startedAt.addingTimeInterval(9 * 60) } == true)
        }
        #expect(chain.history.filter { $0.outcome == .expired }.count == chain.interruptions.count)
    }

    @Test("ml-retrain needs external power: every run started while the phone was charging")
    func retrainOnlyWhileCharging() async throws {
        let report = try await Self.month.run()
        let retrains = report.app(.launchChain).successfulRuns(of: PipelineTasks.mlRetrain)
        #expect(!retrains.isEmpty)
        for run in retrains {
            #expect(report.charging.contains { $0.contains(run.startedAt) }, "ml-retrain at \(run.startedAt)")
        }
        // A morning after a night without charging has no retrain.
        for day in report.days where day.charging == nil {
            #expect(day.apps[0].retrains == 0, "day \(day.number)")
        }
    }

    @Test("in Low Power Mode the system launches neither app in the background, so nothing runs")
    func lowPowerMode() async throws {
        var device = Self.month
        device.lowPowerMode = true
        let report = try await device.run()
        let chain = report.app(.launchChain)
        #expect(chain.history.isEmpty)
        #expect(chain.launches.isEmpty)
        // The chains are submitted at every launch — as many as iOS takes: the app is ready, the
        // system does not launch it.
        #expect(Set(chain.neverSubmitted) == [PipelineTasks.engagementDaily, PipelineTasks.weeklyInsight])
        #expect(report.app(.registerOnly).history.isEmpty)
    }

    @Test("with Background App Refresh denied no background task runs, refresh or processing")
    func refreshDenied() async throws {
        var device = Self.month
        device.backgroundRefreshDenied = true
        let report = try await device.run()
        #expect(report.app(.launchChain).history.isEmpty)
        #expect(report.app(.launchChain).launches.isEmpty)
        #expect(report.retrainDays(.launchChain).isEmpty)
    }

    @Test("after a force-quit nothing runs until the user opens the app again; then the chain carries on")
    func forceQuit() async throws {
        var device = Self.month
        device.forceQuitDay = 10
        let report = try await device.run()
        let forceQuit = try #require(report.forceQuitAt)
        let reopened = try #require(report.visits.first { $0.start > forceQuit }?.start)
        let chain = report.app(.launchChain)

        let suppressed = DateInterval(start: forceQuit, end: reopened)
        #expect(!chain.history.contains { suppressed.contains($0.startedAt) })
        #expect(!chain.launches.contains { suppressed.contains($0) })
        #expect(!chain.refusedLaunches.isEmpty)
        #expect(chain.refusedLaunches.allSatisfy { suppressed.contains($0) })
        #expect(chain.history.contains { $0.startedAt < forceQuit })
        #expect(chain.history.contains { $0.startedAt > reopened && $0.identifier == PipelineTasks.mlRetrain })
    }

    @Test("the force-quit costs the retrain of the night after it")
    func forceQuitCostsRetrain() async throws {
        let normal = try await Self.month.run()
        var device = Self.month
        device.forceQuitDay = 10
        let quit = try await device.run()
        let lost = Set(normal.retrainDays(.launchChain)).subtracting(quit.retrainDays(.launchChain))
        #expect(!lost.isEmpty)
        let forceQuitDay = try #require(quit.days.first { $0.forceQuitAt != nil }?.number)
        #expect(lost.allSatisfy { $0 > forceQuitDay })
    }

    @Test("one seed gives one report; the settings never change the user's days")
    func deterministic() async throws {
        let first = try await Self.month.run()
        let second = try await Self.month.run()
        #expect(first.lines == second.lines)
        #expect(first.jsonLines == second.jsonLines)

        var lowPower = Self.month
        lowPower.lowPowerMode = true
        let other = try await lowPower.run()
        #expect(other.visits == first.visits)
        #expect(other.charging == first.charging)

        var reseeded = Self.month
        reseeded.seed = 2
        #expect(try await reseeded.run().visits != first.visits)
    }

    @Test("the day rows add up to the apps' histories and launches")
    func rowsAddUp() async throws {
        let report = try await Self.month.run()
        for (index, app) in report.apps.enumerated() {
            #expect(report.days.map { $0.apps[index].runs }.reduce(0, +) == app.successfulRuns().count)
            #expect(report.days.map { $0.apps[index].launches }.reduce(0, +) == app.launches.count)
        }
        #expect(report.days.map(\.opens).reduce(0, +) == report.visits.count)
        #expect(report.days.count == 30)
    }
}
