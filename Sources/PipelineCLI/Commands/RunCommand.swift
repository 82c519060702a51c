import Foundation
import PipelineKit
import Scheduling

/// `pipeline run`: one launch of the scheduler, running the due app-refresh tasks. What cron runs
/// every few minutes; `pipeline retrain` runs the processing task.
enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Launch the scheduler: start every user's chains, run the due refresh tasks.",
        discussion: """
            A launch registers the four tasks (health-refresh, ml-retrain, engagement-daily, \
            weekly-insight), starts the chain of each for every user who has none, then runs the due \
            requests of the app-refresh tasks (health-refresh, engagement-daily, weekly-insight), \
            several at once (--jobs), and exits. ml-retrain, the processing task, runs in 'pipeline \
            retrain' launches, the nightly maintenance window. Overlapping launches share the work \
            and never run a request twice.

            Silent when everything succeeds, as cron expects; a task that fails is reported on \
            standard error, retried later with exponential backoff (spread by jitter, so requests \
            that failed together do not come back together), and the status is 1. After \
            --max-attempts failures in a row a request is discarded: 'pipeline status' flags it and \
            'pipeline requests retry' puts it back. A launch that ran tasks also prunes old \
            history (--keep-history), a bounded amount at a time. Nothing due: exit 0 at once, no output. \
            With --json, prints what ran.
            """,
        options: [
            SchedulerLaunch.jobsOption, SchedulerLaunch.metricsFileOption, SchedulerLaunch.maxAttemptsOption,
            SchedulerLaunch.keepHistoryOption,
        ],
        examples: [
            Example("Run what is due, as cron does every 15 minutes", "pipeline run"),
            Example(
                "Replay a launch at a given instant and see what ran", "pipeline run --now 2026-03-01T20:00:00Z --json"),
            Example(
                "Export metrics for node_exporter",
                "pipeline run --metrics-file /var/lib/node_exporter/pipeline.prom"),
        ])

    /// What `run` counts on its progress line.
    static let runs = ProgressLine.Unit(one: "run", many: "runs")

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let pipeline = try await context.openPipeline()
        var options = SchedulerLaunch.launchOptions(context, pipeline: pipeline)
        options.tasks = PipelineTasks.refreshIdentifiers
        let (report, progress) = try await ProgressLine.launch(
            options, label: "running", unit: Self.runs, pipeline: pipeline, context: context)
        progress?.finish()
        return report.unsuccessfulRunCount == 0 ? .ok : .failure
    }
}
