public import Domain
public import Foundation
import PipelineKit
public import Scheduling

/// What a device simulation did, day by day and per app, with each app's run history: the counts
/// come from the history, not from the simulation's own bookkeeping.
public struct DeviceReport: Sendable {
    /// One app's results.
    public struct AppResult: Sendable {
        public let style: LaunchStyle
        /// The app's run history, oldest first.
        public let history: [TaskRun]
        /// When the system launched the app in the background.
        public let launches: [Date]
        /// When the system would have launched it for a due request but the user had force-quit it.
        public let refusedLaunches: [Date]
        /// The tasks `pipeline status` reports as registered but never submitted at the end.
        public let neverSubmitted: [TaskIdentifier]
        /// Retrains the system ended early, and why.
        public let interruptions: [Interruption]
        /// "Log today" reminders the app posted to the user: what the user saw, not how often the
        /// task ran.
        public let remindersDelivered: Int

        /// Successful runs of `task`, or of every task when `nil`.
        public func successfulRuns(of task: TaskIdentifier? = nil) -> [TaskRun] {
            history.filter { run in run.outcome == .success && (task.map { run.identifier == $0 } ?? true) }
        }
    }

    /// A run the system ended before its work or its budget did.
    public struct Interruption: Sendable, Hashable {
        public enum Cause: String, Sendable, Hashable {
            case memoryPressure = "memory pressure"
            case unplugged = "unplugged"
            case forceQuit = "force-quit"
        }

        public let at: Date
        public let cause: Cause
    }

    /// One day of the run.
    public struct DayRow: Sendable {
        /// 1 for the first day.
        public let number: Int
        public let date: Day
        /// Times the user opened the app.
        public let opens: Int
        /// The night of charging that ended this morning, if the phone was charged.
        public let charging: DateInterval?
        public let forceQuitAt: Date?
        /// Per app, in `LaunchStyle.allCases` order.
        public let apps: [AppDay]
    }

    /// One app on one day.
    public struct AppDay: Sendable, Hashable {
        public let launches: Int
        public let refusedLaunches: Int
        /// Successful runs of any task.
        public let runs: Int
        /// Successful runs of `ml-retrain`.
        public let retrains: Int
        public let failedRuns: Int
    }

    public let device: DeviceSimulation
    /// Midnight UTC of the first day.
    public let startDate: Date
    public let days: [DayRow]
    /// In `LaunchStyle.allCases` order.
    public let apps: [AppResult]
    /// The user's visits to the app.
    public let visits: [DateInterval]
    /// When the phone was on external power.
    public let charging: [DateInterval]
    public let forceQuitAt: Date?

    init(device: DeviceSimulation, startDate: Date, timeline: DeviceTimeline, apps: [AppResult]) {
        self.device = device
        self.startDate = startDate
        self.apps = apps
        func date(_ offset: Duration) -> Date {
            startDate.addingTimeInterval(Double(offset.components.seconds))
        }
        visits = timeline.visits.map { DateInterval(start: date($0.lowerBound), end: date($0.upperBound)) }
        charging = timeline.charging.map { DateInterval(start: date($0.lowerBound), end: date($0.upperBound)) }
        forceQuitAt = timeline.forceQuit.map(date)

        let dayIndex: (Date) -> Int = { Int(($0.timeIntervalSince(startDate) / 86_400).rounded(.down)) }
        var rows: [DayRow] = []
        for index in 0..<device.days {
            let midnight = startDate.addingTimeInterval(Double(index) * 86_400)
            let noon = midnight.addingTimeInterval(12 * 3_600)
            let appDays = apps.map { app in
                let runs = app.history.filter { dayIndex($0.startedAt) == index }
                return AppDay(
                    launches: app.launches.filter { dayIndex($0) == index }.count,
                    refusedLaunches: app.refusedLaunches.filter { dayIndex($0) == index }.count,
                    runs: runs.filter { $0.outcome == .success }.count,
                    retrains: runs.filter { $0.outcome == .success && $0.identifier == PipelineTasks.mlRetrain }
                        .count,
                    failedRuns: runs.filter { $0.outcome != .success }.count)
            }
            rows.append(
                DayRow(
                    number: index + 1, date: device.start.adding(days: index),
                    opens: visits.filter { dayIndex($0.start) == index }.count,
                    charging: charging.first { $0.end > midnight && $0.end <= noon },
                    forceQuitAt: forceQuitAt.flatMap { dayIndex($0) == index ? $0 : nil }, apps: appDays))
        }
        days = rows
    }

    /// The results of the app with `style`.
    public func app(_ style: LaunchStyle) -> AppResult {
        apps.first { $0.style == style }!
    }

    /// The days (1-based) with at least one successful `ml-retrain` run of the app.
    public func retrainDays(_ style: LaunchStyle) -> [Int] {
        days.filter { $0.apps[Self.index(of: style)].retrains > 0 }.map(\.number)
    }

    static func index(of style: LaunchStyle) -> Int {
        LaunchStyle.allCases.firstIndex(of: style)!
    }
}
