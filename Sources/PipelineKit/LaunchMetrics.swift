import Domain
import Foundation
public import Scheduling
import Storage

/// The run history as Prometheus text exposition, for node_exporter's textfile collector
/// (https://prometheus.io/docs/instrumenting/exposition_formats/,
/// https://github.com/prometheus/node_exporter#textfile-collector).
///
/// Counters come from the history in the database, so every process writing the file reports the
/// same cumulative numbers, whichever launch wrote last.
public struct LaunchMetrics: Sendable {
    /// The exposition text, one metric family after another, ending with a newline.
    public let text: String
}

extension Pipeline {
    /// Metrics of the whole run history, plus the launch that just ended when given (`duration`
    /// is its wall-clock time).
    public func launchMetrics(
        after report: LaunchReport? = nil, duration: Duration? = nil, options: LaunchOptions = LaunchOptions()
    ) async throws(PipelineError) -> LaunchMetrics {
        let totals = try await storage { (store) throws(StorageError) in try await store.taskRunTotals() }
        let pending = try await storage { (store) throws(StorageError) in try await store.taskRequestCounts() }
        let lastLaunch = try await storage { (store) throws(StorageError) in try await store.lastLaunch() }
        let discarded = try await storage { (store) throws(StorageError) in
            try await store.discardedTaskRequestCounts()
        }
        let cadences = PipelineTasks.cadences(schedule)
        let now = clock.now
        var overdue: [(TaskIdentifier, Int)] = []
        for identifier in PipelineTasks.identifiers {
            guard let cadence = cadences[identifier] else { continue }
            let late = try await storage { (store) throws(StorageError) in
                try await store.overdueTaskRequests(
                    identifier: identifier.rawValue, dueBefore: now.addingTimeInterval(-cadence))
            }
            overdue.append((identifier, late.count))
        }
        var lines: [String] = []
        func family(_ name: String, _ type: String, _ help: String) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
        }
        func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
            let rendered =
                labels.isEmpty
                ? "" : "{" + labels.map { "\($0.0)=\"\(LaunchMetrics.escape($0.1))\"" }.joined(separator: ",") + "}"
            lines.append(name + rendered + " " + LaunchMetrics.number(value))
        }

        family("pipeline_task_runs_total", "counter", "Finished task runs in the run history, by task and outcome.")
        for total in totals {
            sample(
                "pipeline_task_runs_total", [("identifier", total.identifier), ("outcome", total.outcome.rawValue)],
                Double(total.runs))
        }
        family(
            "pipeline_task_run_duration_seconds", "summary",
            "Time task runs took, by the scheduler's clock, over the run history.")
        for identifier in Set(totals.map(\.identifier)).sorted() {
            let mine = totals.filter { $0.identifier == identifier }
            sample(
                "pipeline_task_run_duration_seconds_sum", [("identifier", identifier)],
                mine.reduce(0) { $0 + $1.totalDuration })
            sample(
                "pipeline_task_run_duration_seconds_count", [("identifier", identifier)],
                Double(mine.reduce(0) { $0 + $1.runs }))
        }
        family("pipeline_task_last_run_timestamp_seconds", "gauge", "When a run of the task last finished, Unix time.")
        for identifier in Set(totals.map(\.identifier)).sorted() {
            let last = totals.filter { $0.identifier == identifier }.map(\.lastFinishedAt).max()
            if let last {
                sample(
                    "pipeline_task_last_run_timestamp_seconds", [("identifier", identifier)], last.timeIntervalSince1970
                )
            }
        }
        family(
            "pipeline_task_last_success_timestamp_seconds", "gauge", "When a run of the task last succeeded, Unix time."
        )
        for total in totals where total.outcome == .success {
            sample(
                "pipeline_task_last_success_timestamp_seconds", [("identifier", total.identifier)],
                total.lastFinishedAt.timeIntervalSince1970)
        }
        family(
            "pipeline_task_requests", "gauge", "Task requests by state: pending, due (pending and due now), running.")
        for (identifier, counts) in pending.sorted(by: { $0.key < $1.key }) {
            sample(
                "pipeline_task_requests", [("identifier", identifier), ("state", "pending")], Double(counts.pending))
            sample("pipeline_task_requests", [("identifier", identifier), ("state", "due")], Double(counts.due))
            sample(
                "pipeline_task_requests", [("identifier", identifier), ("state", "running")], Double(counts.running))
        }
        family(
            "pipeline_task_requests_overdue", "gauge",
            "Pending requests due for longer than their task's cadence: no launch has run them (a dead cron?).")
        for (identifier, count) in overdue {
            sample("pipeline_task_requests_overdue", [("identifier", identifier.rawValue)], Double(count))
        }
        family(
            "pipeline_task_requests_discarded", "gauge",
            "Requests out of the schedule, by cause: attempts (retries ran out) or cancelled (by an operator).")
        for (identifier, counts) in discarded.sorted(by: { $0.key < $1.key }) {
            sample(
                "pipeline_task_requests_discarded", [("identifier", identifier), ("cause", "attempts")],
                Double(counts.attempts))
            sample(
                "pipeline_task_requests_discarded", [("identifier", identifier), ("cause", "cancelled")],
                Double(counts.cancelled))
        }
        if let lastLaunch {
            family(
                "pipeline_last_launch_timestamp_seconds", "gauge",
                "When a launch (pipeline run or retrain) last began, by any process, Unix time.")
            sample("pipeline_last_launch_timestamp_seconds", [], lastLaunch.launchedAt.timeIntervalSince1970)
        }
        if let report {
            family("pipeline_launch_timestamp_seconds", "gauge", "When the last launch ran, by its clock, Unix time.")
            sample("pipeline_launch_timestamp_seconds", [], clock.now.timeIntervalSince1970)
            family("pipeline_launch_runs", "gauge", "Runs of the last launch, by outcome.")
            for outcome in TaskOutcome.allCases {
                sample(
                    "pipeline_launch_runs", [("outcome", outcome.rawValue)],
                    Double(report.outcomes[outcome, default: 0]))
            }
            if let duration {
                family("pipeline_launch_duration_seconds", "gauge", "Wall-clock time the last launch took.")
                sample("pipeline_launch_duration_seconds", [], duration.timeInterval)
            }
        }
        return LaunchMetrics(text: lines.joined(separator: "\n") + "\n")
    }
}

extension LaunchMetrics {
    /// A label value with `\`, `"` and newlines escaped, as the text format requires.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Whole numbers without a fraction; others with enough digits to read back.
    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
