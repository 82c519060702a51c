import Domain
import Foundation
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

            With --format apple-health, FILE is the export.xml (or export.zip, which needs unzip) \
            that the Health app exports, and --user says whose it is. Days are calendar days in \
            the user's time zone; values the person typed into Health win over device values; \
            values outside the accepted bounds are counted and reported, not stored. A summary of \
            records read, days written and records skipped by reason is printed to stderr.
            """,
        options: [
            .option(
                "format", .choice(["jsonl", "apple-health"]),
                help: "jsonl: records as described above. apple-health: an Apple Health export.xml or export.zip.",
                default: "jsonl"),
            .flag("strict", help: "Store nothing if any line is rejected (jsonl)."),
            .option("user", .user, help: "The user an Apple Health export belongs to (apple-health)."),
            .option(
                "time-zone", valueName: "zone",
                help: "The user's IANA time zone, e.g. Europe/Berlin (apple-health; default: the stored one, or UTC)."),
        ],
        positionals: [PositionalSpec("file", help: "The input file, or - for standard input.", arity: .required)],
        examples: [
            Example("Ingest a day's sync", "pipeline ingest sync.jsonl"),
            Example("Ingest from standard input", "pipeline ingest - < sync.jsonl"),
            Example(
                "Import an Apple Health export",
                "pipeline ingest --format apple-health export.zip --user alice"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let path = context.arguments.positional("file")!
        if context.arguments.string("format") == "apple-health" {
            return try await importAppleHealth(path: path, context)
        }
        if context.arguments.string("user") != nil || context.arguments.string("time-zone") != nil {
            throw CLIError.usage(
                "--user and --time-zone apply to --format apple-health; JSON Lines name the user per line")
        }
        let input = try context.input(path)
        let source: JSONLinesReader.Source =
            if let descriptor = input.fileDescriptor { .descriptor(descriptor) } else { .bytes(try input.readAll()) }
        var status = stat()
        let databaseWasThere = lstat(context.databasePath, &status) == 0
        let pipeline = try await Pipeline.open(path: context.databasePath, clock: context.clock, log: context.log)
        let stderr = context.io.stderr
        let progress = ProgressLine(context.io, label: "ingesting", unit: .megabytes)
        let watcher = progress.flatMap { progress in input.fileDescriptor.flatMap { Self.watch($0, on: progress) } }
        let report: IngestReport
        do {
            report = try await pipeline.ingestJSONLines(from: source, strict: context.arguments.flag("strict")) {
                error in
                if let progress { progress.finish() }
                stderr.writeLine(error.description)
            }
        } catch {
            watcher?.cancel()
            progress?.finish()
            throw error
        }
        watcher?.cancel()
        progress?.finish()
        withExtendedLifetime(input) {}
        // An input refused as a whole leaves no database behind where there was none: a mistyped --db or a bad
        // file then creates nothing, as with every other command.
        if !databaseWasThere, pipeline.isFile, report.rejected > 0, report.storedCount == 0 {
            for suffix in ["", "-wal", "-shm"] { unlink(context.databasePath + suffix) }
        }
        if context.json {
            context.io.stdout.writeLine(report.json(input: path).jsonText)
        } else if context.io.isTerminal || report.rejected > 0 {
            stderr.writeLine(report.summary)
        }
        return report.rejected > 0 ? .dataError : .ok
    }
}

extension IngestCommand {
    /// Draws how far the reader has got into a regular file (its offset, which the reader's `read(2)` calls
    /// move) against its size, five times a second, until cancelled; `nil` for a pipe, which has no size.
    static func watch(_ descriptor: Int32, on progress: ProgressLine) -> Task<Void, Never>? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else {
            return nil
        }
        let size = Int(status.st_size)
        return Task {
            while !Task.isCancelled {
                let offset = lseek(descriptor, 0, SEEK_CUR)
                if offset >= 0 { progress.update(done: min(Int(offset), size), total: size) }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    static func importAppleHealth(path: String, _ context: CommandContext) async throws -> ExitStatus {
        guard let user = context.arguments.user("user") else {
            throw CLIError.usage("--format apple-health needs --user: the person the export belongs to")
        }
        if context.arguments.flag("strict") {
            throw CLIError.usage("--strict applies to JSON Lines; an Apple Health import is always all or nothing")
        }
        var zone: TimeZone?
        if let name = context.arguments.string("time-zone") {
            guard let found = TimeZone.iana(name) else {
                throw CLIError.usage("--time-zone: '\(name)' is not an IANA time zone name such as Europe/Berlin")
            }
            zone = found
        }
        let pipeline = try await Pipeline.open(path: context.databasePath, clock: context.clock, log: context.log)
        let stderr = context.io.stderr
        var progress: (@Sendable (Int64) -> Void)?
        if context.io.isTerminal {
            progress = { bytes in stderr.write("\rreading export: \(bytes / 1_000_000) MB") }
        }
        let report = try await pipeline.importAppleHealth(path: path, user: user, timeZone: zone, progress: progress)
        if progress != nil { stderr.write("\r\u{1B}[K") }
        if report.createdUser && zone == nil {
            context.log.log(.warning, "\(user) is a new user: days are counted in UTC (pass --time-zone to choose)")
        }
        if context.json {
            var object = JSONObject()
            object["user"] = .string(user.rawValue)
            object["timeZone"] = .string(report.timeZone.ianaName)
            object["recordsRead"] = .number(Double(report.summary.recordsRead))
            object["recordsUsed"] = .number(Double(report.summary.recordsUsedTotal))
            var skipped = JSONObject()
            for (reason, count) in report.summary.recordsSkipped.sorted(by: { $0.key < $1.key }) {
                skipped[reason.description] = .number(Double(count))
            }
            object["recordsSkipped"] = .object(skipped)
            object["daysWritten"] = .number(Double(report.daysWritten))
            object["futureDaysRefused"] = .number(Double(report.futureDaysRefused))
            context.io.stdout.writeLine(object.jsonText)
        } else {
            stderr.writeLine(report.description)
        }
        return .ok
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
