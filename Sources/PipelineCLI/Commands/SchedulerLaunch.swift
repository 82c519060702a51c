import Domain
import Foundation
import Glibc
import PipelineKit
import Scheduling

/// A launch from the command line, as `pipeline run` and `pipeline retrain` make it: their shared options, the
/// launch options they give, the launch itself with its JSON report, and the metrics file (`status` writes it
/// too).
enum SchedulerLaunch {
    /// `--metrics-file`, declared by the commands that can write one.
    static let metricsFileOption = OptionSpec.option(
        "metrics-file", valueName: "path",
        help: "Also write Prometheus metrics of the run history to this file (for node_exporter's textfile "
            + "collector), replacing it atomically.")

    /// `--jobs`: runs at once; the default is the number of cores.
    static let jobsOption = OptionSpec.option(
        "jobs", .integer(1...1024), help: "Tasks to run at once (default: one per core).")

    /// `--max-attempts`: attempts before a failing request is discarded (see
    /// `SchedulerConfiguration.maxAttempts` for why 12).
    static let maxAttemptsOption = OptionSpec.option(
        "max-attempts", .integer(1...1000),
        help: "Attempts a failing request gets before it is discarded (then 'pipeline requests retry' puts it back).",
        default: String(SchedulerConfiguration().maxAttempts), environment: "PIPELINE_MAX_ATTEMPTS")

    /// `--keep-history`: days of history a launch keeps.
    static let keepHistoryOption = OptionSpec.option(
        "keep-history", .integer(1...36_500), valueName: "days",
        help: "Prune runs, acknowledged outbox messages, requeued dead letters and discarded requests older than "
            + "this: one by one, at most \(SchedulerConfiguration().pruneLimit) of each per launch or twice the runs "
            + "it recorded if more; on PostgreSQL whole days of runs besides.",
        default: String(Int((SchedulerConfiguration().historyRetention ?? 0) / 86_400)),
        environment: "PIPELINE_KEEP_HISTORY_DAYS")

    /// The personal models behind `ml-retrain` and `weekly-insight`: one value per launch, so the
    /// population model is pooled once and shared by every user's retrain.
    static func personalModel(for pipeline: Pipeline, jobs: Int) -> (any PersonalModelService)? {
        PersonalModels(pipeline: pipeline, jobs: jobs)
    }

    /// The options every launch from the command line starts with.
    static func launchOptions(_ context: CommandContext, pipeline: Pipeline) -> LaunchOptions {
        var options = LaunchOptions()
        if let jobs = context.arguments.int("jobs") { options.jobs = jobs }
        if let attempts = context.arguments.int("max-attempts") { options.configuration.maxAttempts = attempts }
        if let days = context.arguments.int("keep-history") {
            options.configuration.historyRetention = TimeInterval(days) * 86_400
        }
        options.personalModel = personalModel(for: pipeline, jobs: options.jobs)
        return options
    }

    /// Launches, writes the metrics file if asked, and prints the report with `--json`.
    static func launch(_ options: LaunchOptions, pipeline: Pipeline, context: CommandContext) async throws
        -> LaunchReport
    {
        let started = ContinuousClock.now
        let report = try await pipeline.launch(options)
        let duration = ContinuousClock.now - started
        try await writeMetrics(context, pipeline: pipeline, report: report, duration: duration)
        if context.json {
            context.io.stdout.writeLine(report.json.jsonText)
        }
        return report
    }

    /// Writes `--metrics-file` when given: to a temporary file in the same folder, then renamed over
    /// the target, so the textfile collector never reads half a file. The temporary name does not end
    /// in `.prom`, so the collector ignores it.
    static func writeMetrics(
        _ context: CommandContext, pipeline: Pipeline, report: LaunchReport? = nil, duration: Duration? = nil
    ) async throws {
        guard let path = context.arguments.string("metrics-file") else { return }
        let metrics = try await pipeline.launchMetrics(after: report, duration: duration)
        let temporary = path + ".\(getpid()).tmp"
        let bytes = Array(metrics.text.utf8)
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CLIError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        var offset = 0
        var failure: Int32?
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            offset += written
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw CLIError.cannotOpen(path: path, reason: String(cString: strerror(failure)))
        }
    }
}
