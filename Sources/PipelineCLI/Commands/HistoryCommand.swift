import Domain
import PipelineKit
import Scheduling

/// `pipeline history`: the run history, oldest first.
enum HistoryCommand: Command {
    static let spec = CommandSpec(
        name: "history",
        abstract: "Show the runs of the scheduled tasks: when, for whom, and how each ended.",
        discussion: """
            One run per line under a header, oldest first: its start, task, user, outcome (success, \
            failure or expired), how many of its task's periods it covered when it caught up after \
            missed launches (blank for one), and the reason (which says so when the run was its request's \
            last attempt and the request was discarded). With --json, one JSON object per line with \
            identifier, user, startedAt, finishedAt, outcome, reason and periods. Runs still in \
            progress are not listed. Launches prune runs older than their --keep-history, but keep each chain's latest.
            """,
        options: [
            .option("user", .user, help: "Only this user's runs."),
            .option("identifier", .task, help: "Only runs of this task, e.g. ml-retrain."),
            .option("limit", .integer(1...1_000_000), help: "Only the most recent runs, this many."),
        ],
        examples: [
            Example("Every run", "pipeline history"),
            Example("alice's retrains as JSON Lines", "pipeline history --user alice --identifier ml-retrain --json"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let pipeline = try await context.openPipeline()
        let runs = try await pipeline.taskHistory(
            user: context.arguments.user("user"), task: context.arguments.task("identifier"),
            limit: context.arguments.int("limit"))
        if context.json {
            for run in runs {
                guard !context.io.stdout.isClosed else { break }
                context.io.stdout.writeLine(run.json.jsonText)
            }
            return .ok
        }
        let table = TextTable(
            [
                .init("started"), .init("task"), .init("user"), .init("outcome"), .init("periods", .right),
                .init("reason"),
            ],
            writer: context.io.stdout)
        for run in runs {
            guard !table.isClosed else { break }
            table.add([
                ISO8601Instant.string(from: run.startedAt), run.identifier.rawValue, run.scope.description,
                run.outcome?.rawValue ?? "running", run.periods > 1 ? String(run.periods) : "",
                run.reason.map { PrintableExcerpt.of($0, limit: 2_000) } ?? "",
            ])
        }
        table.finish()
        return .ok
    }
}
