import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage

/// Reads the scheduler's state for the cohort page through Store's and PipelineKit's public reads:
/// the run history, the requests, dead letters and `pipeline status`'s diagnostics.
struct SchedulerHealthReader: Sendable {
    let pipeline: Pipeline
    let now: Date
    /// Days of history charted, ending today (UTC).
    let days: Int
    /// A due request that has waited longer than this is overdue: four of the 15-minute cron
    /// launches the README suggests missed it.
    static let overdueAfter: TimeInterval = 3600

    func read() async throws(ReportError) -> SchedulerHealth {
        let runs = try await ReportGenerator.readStore(
            { (store) throws(StorageError) in try await store.taskRuns(includeUnfinished: true) }, on: pipeline)
        let requests = try await ReportGenerator.readStore(
            { (store) throws(StorageError) in try await store.taskRequests() }, on: pipeline)
        let status = try await ReportGenerator.read { () async throws(PipelineError) in try await pipeline.status() }

        let utc = TimeZone(identifier: "UTC")!
        let today = Day(containing: now, in: utc)
        let first = today.adding(days: -(days - 1))
        let chartDays = (0..<days).map { first.adding(days: $0) }
        let registered = PipelineTasks.identifiers.map(\.rawValue)
        let others = Set(runs.map(\.identifier)).subtracting(registered).sorted()
        var succeeded: [String: [Int]] = [:]
        var failed: [String: [Int]] = [:]
        for identifier in registered + others {
            succeeded[identifier] = Array(repeating: 0, count: days)
            failed[identifier] = Array(repeating: 0, count: days)
        }
        for run in runs {
            guard let outcome = run.outcome else { continue }
            let index = first.distance(to: Day(containing: run.startedAt, in: utc))
            guard (0..<days).contains(index) else { continue }
            if outcome == .success {
                succeeded[run.identifier]![index] += 1
            } else {
                failed[run.identifier]![index] += 1
            }
        }

        var overdue = 0
        var dueNow = 0
        var waiting = 0
        var running = 0
        var longest: TimeInterval?
        for request in requests {
            if request.leaseOwner != nil {
                running += 1
                continue
            }
            let due = request.earliestBeginAt ?? request.submittedAt
            if due > now {
                waiting += 1
                continue
            }
            let late = now.timeIntervalSince(due)
            if late > Self.overdueAfter {
                overdue += 1
                longest = max(longest ?? 0, late)
            } else {
                dueNow += 1
            }
        }

        var problems: [String] = []
        let scheduler = status.scheduler
        if !scheduler.neverSubmitted.isEmpty {
            problems.append("\(scheduler.neverSubmitted.count) chains registered but never submitted")
        }
        if !scheduler.brokenChains.isEmpty {
            problems.append("\(scheduler.brokenChains.count) chains broken: a handler left no successor")
        }
        if !scheduler.stuck.isEmpty { problems.append("\(scheduler.stuck.count) requests stuck on an expired lease") }
        for (identifier, count) in scheduler.unregistered.sorted(by: { $0.key < $1.key }) {
            problems.append("\(count) requests of '\(identifier)', which this version does not register")
        }
        for (kind, count) in status.unknownWatchKinds.sorted(by: { $0.key < $1.key }) {
            problems.append("\(count) queued watch items of unknown kind '\(PrintableExcerpt.of(kind))'")
        }

        return SchedulerHealth(
            days: chartDays,
            tasks: (registered + others).map {
                SchedulerHealth.TaskRuns(identifier: $0, succeeded: succeeded[$0]!, failed: failed[$0]!)
            },
            overdue: overdue, dueNow: dueNow, waiting: waiting, running: running, longestOverdue: longest,
            deadLetters: status.summary.deadLetters, lastLaunch: runs.map(\.startedAt).max(), problems: problems)
    }
}
