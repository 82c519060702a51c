import Domain
import Foundation
import Glibc
import PipelineKit
import Scheduling
import Storage

/// What the scheduler commands (`run`, `retrain`, `status`, `history`, `outbox`) share: opening the
/// pipeline, wiring the personal model, the metrics file, and how instants and runs are printed.
enum LaunchSupport {
    /// `--metrics-file`, declared by the commands that can write one.
    static let metricsFileOption = OptionSpec.option(
        "metrics-file", valueName: "path",
        help: "Also write Prometheus metrics of the run history to this file (for node_exporter's textfile "
            + "collector), replacing it atomically.")

    /// `--jobs`: runs at once; the default is the number of cores.
    static let jobsOption = OptionSpec.option(
        "jobs", .integer(1...1024), help: "Tasks to run at once (default: one per core).")

    /// Opens an existing database: every command but ingestion and `init` refuses a path where there
    /// is none, so a mistyped `--db` is an error and creates nothing.
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
            + "this, at most \(SchedulerConfiguration().pruneLimit) of each per launch.",
        default: String(Int((SchedulerConfiguration().historyRetention ?? 0) / 86_400)),
        environment: "PIPELINE_KEEP_HISTORY_DAYS")

    static func open(_ context: CommandContext) async throws -> Pipeline {
        try await Pipeline.openExisting(path: context.databasePath, clock: context.clock, log: context.log)
    }

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
            context.io.stdout.writeLine(json(report).jsonText)
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

    // MARK: Printing

    /// A run as `pipeline history --json` prints it.
    static func json(_ run: TaskRun) -> JSONValue {
        .object([
            "identifier": .string(run.identifier.rawValue),
            "user": run.scope.user.map { .string($0.rawValue) } ?? .null,
            "startedAt": .string(ISO8601Instant.string(from: run.startedAt)),
            "finishedAt": run.finishedAt.map { .string(ISO8601Instant.string(from: $0)) } ?? .null,
            "outcome": run.outcome.map { .string($0.rawValue) } ?? .null,
            "reason": run.reason.map(JSONValue.string) ?? .null,
            "periods": .number(Double(run.periods)),
        ])
    }

    static func json(_ request: ScheduledRequest) -> JSONValue {
        .object([
            "identifier": .string(request.identifier.rawValue),
            "user": request.scope.user.map { .string($0.rawValue) } ?? .null,
            "earliestBeginDate": request.earliestBeginDate.map { .string(ISO8601Instant.string(from: $0)) } ?? .null,
            "attempts": .number(Double(request.attempts)),
        ])
    }

    static func json(_ report: LaunchReport) -> JSONValue {
        .object([
            "startedChains": .number(Double(report.startedChains)),
            "runCount": .number(Double(report.runCount)),
            "runs": .array(report.runs.map(json)),
            "reclaimed": .number(Double(report.reclaimed)),
            "waitingForConditions": .array(report.waitingForConditions.map(json)),
            "runningElsewhere": .array(report.runningElsewhere.map(json)),
            "discarded": .number(Double(report.discarded.count)),
            "pruned": .object([
                "runs": .number(Double(report.pruned.runs)),
                "outboxMessages": .number(Double(report.pruned.outboxMessages)),
                "deadLetters": .number(Double(report.pruned.deadLetters)),
                "discardedRequests": .number(Double(report.pruned.discardedRequests)),
            ]),
        ])
    }

    /// The `<id>` positionals of an operator's action (`requests cancel 12 13`); `what` names the
    /// thing in the error, e.g. "a request".
    static func ids(_ context: CommandContext, of what: String) throws(CLIError) -> [Int64] {
        try context.arguments.positionals("id").map { (text) throws(CLIError) -> Int64 in
            guard let id = Int64(text), id > 0 else {
                throw .invalidValue(text, origin: "'<id>'", expected: "\(what) id, a positive integer")
            }
            return id
        }
    }

    /// `4 h`, `1 day`, `7 days`: a cadence in words.
    static func duration(_ seconds: TimeInterval) -> String {
        if seconds >= 86_400, seconds.truncatingRemainder(dividingBy: 86_400) == 0 {
            let days = Int(seconds / 86_400)
            return "\(days) day\(days == 1 ? "" : "s")"
        }
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600)) h" }
        return "\(Int(seconds / 60)) min"
    }

    /// `health-refresh for ada`, `cleanup (global)`.
    static func label(_ identifier: TaskIdentifier, _ scope: TaskScope) -> String {
        scope.user.map { "\(identifier) for \($0)" } ?? "\(identifier) (global)"
    }
}
