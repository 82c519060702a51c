import Domain
import Ingestion
import PipelineKit

/// `pipeline ingest FILE|-`: stores JSON Lines records (DESIGN §7).
enum IngestCommand: Command {
    static let spec = CommandSpec(
        name: "ingest",
        abstract: "Store user entries, health metrics, settings and watch items from JSON Lines.",
        discussion: """
            Reads one JSON object per line, each with a "type" of user, settings, entry, health or \
            watch, and stores it by the merge rules: what a person typed always wins, health metrics \
            only fill gaps or refresh earlier health values. After storing, queued watch items of the \
            known kinds are applied.

            A bad line is reported on stderr as "line N: <field>: <problem>" and the good lines are \
            kept; the exit status is then 65. With --strict, one bad line stores nothing at all.

            On success nothing is printed (cron convention), unless stderr is a terminal or --json \
            asks for the report.
            """,
        options: [
            .option(
                "format", .choice(["jsonl"]), help: "The input format.", default: "jsonl"),
            .flag("strict", help: "Store nothing if any line is rejected."),
        ],
        positionals: [PositionalSpec("file", help: "The input file, or - for standard input.", arity: .required)],
        examples: [
            Example("Ingest a day's sync", "pipeline ingest sync.jsonl"),
            Example("Ingest from standard input", "pipeline ingest - < sync.jsonl"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let path = context.arguments.positional("file")!
        let input = try context.input(path)
        let source: JSONLinesReader.Source =
            if let descriptor = input.fileDescriptor { .descriptor(descriptor) } else { .bytes(try input.readAll()) }
        let pipeline = try await Pipeline.open(path: context.databasePath, clock: context.clock, log: context.log)
        let stderr = context.io.stderr
        let report = try await pipeline.ingestJSONLines(from: source, strict: context.arguments.flag("strict")) {
            error in
            stderr.writeLine(error.description)
        }
        withExtendedLifetime(input) {}
        if context.json {
            context.io.stdout.writeLine(report.json(input: path).jsonText)
        } else if context.io.isTerminal || report.rejected > 0 {
            stderr.writeLine(report.summary)
        }
        return report.rejected > 0 ? .dataError : .ok
    }
}

extension IngestReport {
    /// One line for people: what was stored, rejected and applied.
    var summary: String {
        guard committed else {
            return "rejected \(rejected) of \(records) records; --strict: nothing was stored"
        }
        let kinds = stored.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var line = "stored \(storedCount) of \(records) records"
        if !kinds.isEmpty { line += " (\(kinds))" }
        if rejected > 0 { line += "; rejected \(rejected)" }
        if drained.appliedCount > 0 { line += "; applied \(drained.appliedCount) watch items" }
        if drained.failed + drained.deadLettered > 0 {
            line += "; \(drained.failed + drained.deadLettered) watch items failed to apply"
        }
        return line
    }

    func json(input: String) -> JSONValue {
        var object = JSONObject()
        object["input"] = .string(input)
        object["records"] = .number(Double(records))
        object["committed"] = .bool(committed)
        var kinds = JSONObject()
        for (kind, count) in stored.sorted(by: { $0.key < $1.key }) { kinds[kind] = .number(Double(count)) }
        object["stored"] = .object(kinds)
        object["rejected"] = .number(Double(rejected))
        var applied = JSONObject()
        for (kind, count) in drained.applied.sorted(by: { $0.key < $1.key }) { applied[kind] = .number(Double(count)) }
        object["watchApplied"] = .object(applied)
        object["watchFailed"] = .number(Double(drained.failed))
        object["watchDeadLettered"] = .number(Double(drained.deadLettered))
        return .object(object)
    }
}
