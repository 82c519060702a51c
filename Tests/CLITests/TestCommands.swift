import Domain
import Foundation

@testable import PipelineCLI

/// Commands that exist only in this test target, to drive the framework through every kind of
/// option and every way a command can end. The product's registry never contains them.
let testRegistry = CommandRegistry([ProbeCommand.self, FailingCommand.self, HelpCommand.self])

/// Prints what its command line resolved to, one `key=value` per line.
enum ProbeCommand: Command {
    static let spec = CommandSpec(
        name: "probe",
        abstract: "Print what the command line resolved to.",
        discussion: """
            Reads every kind of option the framework offers, so that tests can see what a command \
            receives.

            Lines that start with a space are kept:
              pipeline probe --user alice
            """,
        options: [
            .option("user", .user, help: "The user whose data to read.", required: true),
            .option("jobs", .integer(1...8), help: "How many fits run at once.", default: "2"),
            .option("format", .choice(["jsonl", "csv"]), help: "The output format.", default: "jsonl"),
            .option("for", .day, help: "The day to predict."),
            .option("ack", valueName: "id", help: "An outbox message to acknowledge.", repeatable: true),
            .option("label", help: "A label for the run.", environment: "PROBE_LABEL"),
            .flag("force", short: "f", help: "Run even if nothing is due."),
        ],
        positionals: [PositionalSpec("file", help: "A file to read, or - for standard input.", arity: .optional)],
        examples: [Example("Probe alice on standard input", "pipeline probe --user alice -")])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let arguments = context.arguments
        let lines = [
            "db=\(context.databasePath)",
            "clock=\(type(of: context.clock))",
            "now=\(context.clock is FixedClock ? String(context.clock.now.timeIntervalSince1970) : "-")",
            "json=\(context.json)",
            "user=\(arguments.user("user")?.rawValue ?? "-")",
            "jobs=\(arguments.int("jobs").map(String.init) ?? "-")",
            "format=\(arguments.string("format") ?? "-")",
            "for=\(arguments.day("for")?.description ?? "-")",
            "ack=\(arguments.strings("ack").joined(separator: ","))",
            "label=\(arguments.string("label") ?? "-")",
            "force=\(arguments.flag("force"))",
            "file=\(arguments.positional("file") ?? "-")",
        ]
        for line in lines {
            context.io.stdout.writeLine(line)
        }
        if let path = arguments.positional("file") {
            let input = try context.input(path)
            while let line = try input.readLine() {
                context.io.stdout.writeLine("read: \(line)")
            }
        }
        context.log.log(.debug, "probe finished")
        context.log.log(.warning, "probe warns")
        return .ok
    }
}

/// Ends the way its argument says.
enum FailingCommand: Command {
    static let spec = CommandSpec(
        name: "fail",
        abstract: "End with the error or status asked for.",
        positionals: [PositionalSpec("how", help: "domain, usage, unknown, temporary or lines.")])

    struct Unadapted: Error, CustomStringConvertible {
        var description: String { "the disk went away" }
    }

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        switch context.arguments.positional("how") {
        case "domain": throw DomainError.invalidValue(field: "mood", problem: "must be 1...5")
        case "usage": throw CLIError.usage("--from must not be after --to")
        case "unknown": throw Unadapted()
        case "temporary": return .temporaryFailure
        case "lines":
            for index in 0..<200_000 {
                context.io.stdout.writeLine("line \(index)")
            }
            return .ok
        default: return .failure
        }
    }
}

/// Runs `arguments` through the same path as `runPipeline`, with `testRegistry`.
func runTest(
    _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
    stdout: OutputWriter = .memory()
) async -> (status: ExitStatus, stdout: String, stderr: String) {
    let io = CommandIO(stdin: InputSource(text: stdin), stdout: stdout, stderr: .memory())
    let status = await run(arguments, environment: environment, io: io, registry: testRegistry)
    return (status, io.stdout.text, io.stderr.text)
}

/// The `key=value` lines of a probe run, as a dictionary.
func probed(_ stdout: String) -> [String: String] {
    var values: [String: String] = [:]
    for line in stdout.split(separator: "\n") {
        guard let equals = line.firstIndex(of: "=") else { continue }
        values[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return values
}
