import Audit

/// `pipeline audit PATH…`: background-execution mistakes in iOS/macOS Swift sources.
enum AuditCommand: Command {
    static let spec = CommandSpec(
        name: "audit",
        abstract: "Find background-execution mistakes in iOS and macOS Swift sources.",
        discussion: """
            Walks the .swift files under each PATH (and reads the Info.plist files there) and reports, \
            per file, each finding's line, rule, why it breaks on a device and a short before/after, \
            then a summary ordered by priority that names the files and folders not audited and why \
            (Pods/, Carthage/, test code, unreadable or malformed Info.plist files, files that are not \
            UTF-8). \
            The rules: task registration outside launch, identifiers registered but never submitted, \
            submitted only from their own handler or missing from \
            BGTaskSchedulerPermittedIdentifiers, handlers without an expiration handler (or with one \
            that only logs), without setTaskCompleted on every path, completing twice or that do not \
            reschedule, power or network requirements on a refresh request, unpaired \
            beginBackgroundTask, background URLSession misuse (completion handlers, uploads from data, \
            no delegate, the background-events completion handler called too early), background \
            location updates without the location background mode, silent and VoIP pushes not \
            completed or reported, identifiers registered twice.

            --format sarif writes SARIF 2.1.0, which GitHub code scanning and other CI systems read; \
            run it from the repository root with relative paths so that the file URIs match.

            Exit status 1 when a finding at or above --fail-on is present, so it can gate CI; 0 \
            otherwise.
            """,
        options: [
            .option(
                "fail-on", .choice(["critical", "high", "medium", "low"]),
                help: "The lowest severity that makes the exit status 1.", default: "high"),
            .option(
                "format", .choice(["text", "json", "sarif"]),
                help: "The report format (--json is the same as --format json).", default: "text"),
        ],
        positionals: [
            PositionalSpec("path", help: "Swift files or folders to audit.", arity: .oneOrMore)
        ],
        examples: [
            Example("Audit an app's sources", "pipeline audit MyApp/"),
            Example("In CI, as JSON, failing on medium findings too", "pipeline audit MyApp --json --fail-on medium"),
            Example("For GitHub code scanning", "pipeline audit . --format sarif > audit.sarif"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let threshold = Severity(argument: context.arguments.string("fail-on")!)!
        let format = context.arguments.string("format") ?? "text"
        if context.json, format != "text", format != "json" {
            throw CLIError.usage("--json and --format \(format) ask for two formats; give one")
        }
        let report = try Auditor().audit(paths: context.arguments.positionals("path"))
        switch context.json ? "json" : format {
        case "json": context.io.stdout.write(report.renderJSON())
        case "sarif": context.io.stdout.write(report.renderSARIF(toolVersion: RootCommand.version))
        default: context.io.stdout.write(report.renderText())
        }
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
