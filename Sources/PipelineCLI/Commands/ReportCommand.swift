import Domain
import Foundation
import HTMLReport
import PipelineKit

/// `pipeline report --out DIR`: the cohort and each user as a static HTML/SVG site.
enum ReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Write the cohort and each user as a static HTML site with charts.",
        discussion: """
            Writes DIR/index.html (the cohort: users by served model, forecast error of the served \
            models beside "tomorrow = today" and the population model week by week — from the latest \
            'pipeline evaluate' recorded in the database, else from each served model's hold-out \
            days, and the page says which — calibration of flare \
            probabilities, the scheduler's runs per day, overdue and waiting requests, dead letters \
            and the last launch) and DIR/users/<user>.html per user (the last 180 days of severity, \
            mood and energy with the forecasts for those days and their flare probability, which \
            metrics the person typed and which came from health data, the served model's \
            associations in words with their coefficients, and its model history).

            The pages are plain HTML with inline SVG: they open from disk, fetch nothing and need \
            no JavaScript. They hold health data: the folder is created readable by its owner only \
            (0700) and every file 0600. --redact replaces user ids by stable pseudonyms \
            (person-<12 hex digits>, the same in every report) and leaves notes and time zones out; \
            the pseudonyms hide ids from a reader but are not a secret, so a redacted report is \
            still personal data.

            Prints the index's path; nothing else on success.
            """,
        options: [
            .option(
                "out", valueName: "dir", help: "The folder to write the site to (created if missing).", required: true),
            .option("user", .user, help: "Write only this user's page (and the cohort page)."),
            .flag("redact", help: "Show pseudonyms instead of user ids, and leave notes out."),
            .option("days", .integer(7...3650), help: "Days charted on each user's page.", default: "180"),
            .option("jobs", .integer(1...1024), help: "Users read and rendered at once (default: one per core)."),
        ],
        examples: [
            Example("The whole cohort", "pipeline report --out /srv/pipeline/report"),
            Example("One user, with pseudonyms", "pipeline report --out /tmp/report --user alice --redact"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let out = context.arguments.string("out")!
        let pipeline = try await context.openPipeline()
        var options = ReportOptions(outputPath: out)
        options.user = context.arguments.user("user")
        options.redact = context.arguments.flag("redact")
        options.days = context.arguments.int("days")!
        if let jobs = context.arguments.int("jobs") { options.jobs = jobs }
        let summary = try await ReportGenerator.write(pipeline: pipeline, options: options)
        let index = (out as NSString).appendingPathComponent("index.html")
        if context.json {
            var object = JSONObject()
            object["index"] = .string(index)
            object["files"] = .number(Double(summary.files.count))
            object["users"] = .number(Double(summary.users))
            context.io.stdout.writeLine(object.jsonText)
        } else {
            context.io.stdout.writeLine(index)
        }
        return .ok
    }
}

extension ReportError: CLIReportableError {
    var exitStatus: ExitStatus {
        switch self {
        case .pipeline(let error): error.exitStatus
        case .output: .failure
        case .unknownUser: .failure
        }
    }

    var message: String { description }
}
