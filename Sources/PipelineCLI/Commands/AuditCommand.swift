import Audit

/// `pipeline audit PATH…`: background-execution mistakes in iOS/macOS Swift sources.
enum AuditCommand: Command {
    static let spec = CommandSpec(
        name: "audit",
        abstract: "Find background-execution mistakes in iOS and macOS Swift sources.",
        discussion: """
            Walks the .swift files under each PATH (and reads the Info.plist files there) and reports, \
            per file, each finding's line, rule, why it breaks on a device and a short before/after, \
            then a summary ordered by priority. The rules: task registration outside launch, \
            identifiers registered but never submitted or missing from \
            BGTaskSchedulerPermittedIdentifiers, handlers without an expiration handler, without \
            setTaskCompleted on every path or that do not reschedule, power or network requirements \
            on a refresh request, unpaired beginBackgroundTask, background URLSession misuse, silent \
            and VoIP pushes not completed or reported, identifiers registered twice.

            Exit status 1 when a finding at or above --fail-on is present, so it can gate CI; 0 \
            otherwise.
            """,
        options: [
            .option(
                "fail-on", .choice(["critical", "high", "medium", "low"]),
                help: "The lowest severity that makes the exit status 1.", default: "high")
        ],
        positionals: [
            PositionalSpec("path", help: "Swift files or folders to audit.", arity: .oneOrMore)
        ],
        examples: [
            Example("Audit an app's sources", "pipeline audit MyApp/"),
            Example("In CI, as JSON, failing on medium findings too", "pipeline audit MyApp --json --fail-on medium"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let threshold = Severity(argument: context.arguments.string("fail-on")!)!
        let report = try Auditor().audit(paths: context.arguments.positionals("path"))
        context.io.stdout.write(context.json ? report.renderJSON() : report.renderText())
        return report.hasFindings(atOrAbove: threshold) ? .failure : .ok
    }
}

extension AuditError: CLIReportableError {
    var exitStatus: ExitStatus {
        switch self {
        case .pathNotFound, .noPaths: .usage
        case .unreadable: .failure
        }
    }

    var message: String { description }
}
