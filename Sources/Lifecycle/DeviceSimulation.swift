public import Domain
public import Foundation
import PipelineKit
import Scheduling
import Storage

/// A phone over `days` simulated days, with two apps side by side, each on its own temporary
/// database with the pipeline's real scheduler and tasks on a virtual clock (DESIGN §9): one whose
/// launch submits the task chains, one that only registers its handlers. The system decides when it
/// launches them as iOS does (see `DeviceTimeline` for the usage pattern, charging and launch
/// opportunities), under the settings here.
///
/// ```swift
/// var device = DeviceSimulation(days: 30, seed: 7)
/// device.forceQuitDay = 10
/// let report = try await device.run()
/// print(report.retrainDays(.launchChain))  // days with a successful ml-retrain
/// ```
public struct DeviceSimulation: Sendable, Hashable {
    /// How many days to simulate, from midnight UTC of `start`.
    public var days: Int
    /// The seed of the usage pattern, charging and launch opportunities.
    public var seed: UInt64
    /// The first day (the phone's time zone and the user's are UTC).
    public var start = Day(year: 2026, month: 3, day: 1)!
    /// The day (1-based) the user force-quits the apps: no background launch until they open them again.
    public var forceQuitDay: Int? = nil
    /// Background App Refresh off: `BGTaskScheduler` is unavailable, so the system launches the apps
    /// for no background task, refresh or processing.
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/error/unavailable
    public var backgroundRefreshDenied = false
    /// Low Power Mode for the whole run: it turns Background App Refresh off, so no background launch.
    /// https://developer.apple.com/documentation/uikit/uiapplication/backgroundrefreshstatus
    public var lowPowerMode = false
    /// Virtual seconds a retrain's work takes on the phone; the processing budget is 10 minutes,
    /// and the system may end a run sooner (memory pressure, unplugging, a force-quit).
    public var retrainDuration: TimeInterval = 180

    /// A phone over `days` days with the usage pattern of `seed`; the other settings are set on the value.
    public init(days: Int = 30, seed: UInt64 = 1) {
        self.days = days
        self.seed = seed
    }

    /// Runs both apps through the same timeline and reports, from each app's run history, what ran.
    /// The databases live in a temporary folder that is removed before this returns.
    ///
    /// - Precondition: `days` ≥ 1, and `forceQuitDay`, when set, is one of the days.
    public func run() async throws(LifecycleError) -> DeviceReport {
        precondition(days >= 1, "a simulation needs at least one day")
        precondition(forceQuitDay.map { (1...days).contains($0) } ?? true, "the force-quit day is not simulated")
        let timeline = DeviceTimeline(days: days, seed: seed, forceQuitDay: forceQuitDay)
        let folder = try TemporaryFolder()
        let startDate = start.localTime(hour: 0, in: .utc)
        let end = Duration.seconds(Int64(days) * 86_400)
        var apps: [DeviceReport.AppResult] = []
        for style in LaunchStyle.allCases {
            do throws(PipelineError) {
                let app = try await SimulatedApp(
                    style: style, databasePath: folder.path("\(style.key).sqlite"), start: startDate, device: self)
                try await app.replay(timeline, until: end)
                let status = try await app.pipeline.status(app.options(tasks: nil))
                apps.append(
                    DeviceReport.AppResult(
                        style: style, history: try await app.pipeline.taskHistory(), launches: app.launches,
                        refusedLaunches: app.refusedLaunches,
                        neverSubmitted: status.scheduler.neverSubmitted.map(\.identifier),
                        interruptions: app.interruptions,
                        remindersDelivered: try await app.pipeline.outbox(includeAcknowledged: true).count {
                            $0.kind == OutboxKind.logReminder
                        }))
            } catch {
                throw .pipeline(error)
            }
        }
        return DeviceReport(device: self, startDate: startDate, timeline: timeline, apps: apps)
    }
}

/// A fresh folder under the system's temporary directory, removed with everything in it on release.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws(LifecycleError) {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pipeline-simulate-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .temporaryFolder(path: url.path, reason: error.localizedDescription)
        }
    }

    deinit {
        // Losing a temporary database loses nothing: the simulation's results are already in memory.
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}
