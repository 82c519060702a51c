import Domain
import PipelineKit

/// `pipeline export --user U`: a user's DailyLog rows with the source of each metric.
enum ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Print a user's daily logs as JSON Lines, with the source of each metric.",
        discussion: """
            One JSON object per day, oldest first, with the field names ingest reads plus \
            "sources": {"<field>": "user" | "health"} for each metric present. The output can be \
            ingested again.
            """,
        options: [
            .option("user", .user, help: "The user whose logs to print.", required: true),
            .option("from", .day, help: "The first day to print."),
            .option("through", .day, help: "The last day to print."),
        ],
        examples: [
            Example("Print alice's March", "pipeline export --user alice --from 2026-03-01 --through 2026-03-31")
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let id = context.arguments.user("user")!
        let pipeline = try await context.openPipeline()
        guard try await pipeline.user(id) != nil else { throw PipelineError.unknownUser(id.rawValue) }
        let logs = try await pipeline.dailyLogs(
            user: id, from: context.arguments.day("from"), through: context.arguments.day("through"))
        for log in logs {
            if context.io.stdout.isClosed { break }
            context.io.stdout.writeLine(log.exportJSON.jsonText)
        }
        return .ok
    }
}

extension DailyLog {
    /// The row as `pipeline export` prints it: ingest's field names, then the metric sources.
    var exportJSON: JSONObject {
        var object = JSONObject()
        object["user"] = .string(user.rawValue)
        object["day"] = .string(day.description)
        for field in Field.allCases {
            if let value = value(of: field) { object[field.rawValue] = .number(value) }
        }
        if let notes { object["notes"] = .string(notes) }
        var sources = JSONObject()
        for field in Field.metrics {
            if let source = source(of: field) { sources[field.rawValue] = .string(source.rawValue) }
        }
        object["sources"] = .object(sources)
        return object
    }
}
