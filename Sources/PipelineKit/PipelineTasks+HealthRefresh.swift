import Domain
import Foundation
import Scheduling

extension TaskContext {
    /// The chain starts due at once: the first launch drains what ingestion left queued.
    var firstHealthRefresh: ChainStart {
        { scope, _ in AppRefreshTaskRequest(identifier: PipelineTasks.healthRefresh, scope: scope) }
    }

    /// `health-refresh`: applies the user's queued watch items of the known kinds through
    /// `Pipeline.drainWatchQueue`, the function ingestion calls too, so the foreground and background
    /// paths cannot drift (DESIGN §2). Health metrics need no second merge path: ingestion merges
    /// them into DailyLog as they arrive, by the same upsert.
    ///
    /// The drain commits page by page while the run goes on, each page fenced by the run's lease: once another
    /// worker has taken the request over, nothing more is applied.
    var runHealthRefresh: TaskHandler {
        { [self] task in
            let next = TaskDates.fixedRate(
                from: task.earliestBeginDate ?? task.startedAt, every: schedule.healthRefreshInterval,
                after: task.startedAt)
            guard await submitSuccessor(dueAt: next, of: task) else { return }
            // Each item's effect and its removal are one transaction, so stopping between items loses
            // nothing; what is left stays queued for the next run.
            task.expirationHandler = {}
            guard let user = user(of: task) else { return }
            do {
                let (report, leaseLost) = try await pipeline.drainWatchQueue(
                    kinds: WatchKind.allCases, user: user, fencedBy: task.lease)
                if leaseLost {
                    // Not recorded either: the run's record is fenced by the same lease.
                    task.setTaskCompleted(success: false, reason: "another worker took the request over")
                    return
                }
                var reason = "applied \(report.appliedCount) watch item\(report.appliedCount == 1 ? "" : "s")"
                if report.failed > 0 { reason += ", \(report.failed) failed and stay queued" }
                if report.deadLettered > 0 { reason += ", \(report.deadLettered) moved to the dead-letter list" }
                task.setTaskCompleted(success: true, reason: reason)
            } catch {
                fail(task, error)
            }
        }
    }
}
