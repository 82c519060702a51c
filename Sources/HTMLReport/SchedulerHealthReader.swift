import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage

/// Reads the scheduler's state for the cohort page through PipelineKit's public reads:
/// the run history, the requests, dead letters and `pipeline status`'s diagnostics.
struct SchedulerHealthReader: Sendable {
    let pipeline: Pipeline
    let now: Date
    /// Days of history charted, ending today (UTC).
    let days: Int
    func read() async throws(ReportError) -> SchedulerHealth {
        let runs = try await ReportGenerator.read { () async throws(PipelineError) in
            try await pipeline.taskRunRecords()
        }
        let requests = try await ReportGenerator.read { () async throws(PipelineError) in
            try await pipeline.taskRequestRecords()
        }
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

        // Overdue is `pipeline status`'s: due for longer than the task's cadence. The rest of the
        // pending requests are due now (the next launch takes them) or waiting for their time.
        let scheduler = status.scheduler
        let overdue = scheduler.overdue.reduce(0) { $0 + $1.requests }
        let longest = scheduler.overdue.map { now.timeIntervalSince($0.oldestDueAt) }.max()
        var dueNow = 0
        var waiting = 0
        var running = 0
        for request in requests {
            if request.leaseOwner != nil {
                running += 1
            } else if (request.earliestBeginAt ?? request.submittedAt) > now {
                waiting += 1
            } else {
                dueNow += 1
            }
        }
        dueNow = max(dueNow - overdue, 0)

        // The diagnostics of `pipeline status --check`, in its order, counted.
        var problems: [String] = []
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
        for late in scheduler.overdue {
            problems.append(
                "\(late.requests) \(late.identifier) request\(late.requests == 1 ? "" : "s") overdue: due for longer than "
                    + "the task's cadence, so no launch ran \(late.requests == 1 ? "it" : "them") (is cron running '"
                    + (late.identifier == PipelineTasks.mlRetrain ? "pipeline retrain" : "pipeline run") + "'?)")
        }
        for waiting in scheduler.waitingOnConditions {
            problems.append(
                "\(waiting.requests) \(waiting.identifier) requests waiting on \(waiting.unmet.joined(separator: " and "))"
            )
        }
        if scheduler.discardedRequests > 0 {
            problems.append("\(scheduler.discardedRequests) requests discarded after their last attempt")
        }
        for (kind, count) in status.unknownWatchKinds.sorted(by: { $0.key < $1.key }) {
            problems.append("\(count) queued watch items of unknown kind '\(PrintableExcerpt.of(kind))'")
        }
        if status.summary.deadLetters > 0 {
            problems.append(
                "\(status.summary.deadLetters) watch items dead-lettered after failing too often (pipeline dead-letters)"
            )
        }

        return SchedulerHealth(
            days: chartDays,
            tasks: (registered + others).map {
                SchedulerHealth.TaskRuns(identifier: $0, succeeded: succeeded[$0]!, failed: failed[$0]!)
            },
            overdue: overdue, dueNow: dueNow, waiting: waiting, running: running, longestOverdue: longest,
            deadLetters: status.summary.deadLetters,
            lastLaunch: scheduler.lastLaunch?.launchedAt ?? runs.map(\.startedAt).max(),
            healthy: !status.hasProblems, problems: problems)
    }
}
