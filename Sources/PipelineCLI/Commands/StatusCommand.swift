import Domain
import PipelineKit

/// `pipeline status`: what the database holds and what needs attention.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show users, daily logs, queued watch items and dead letters.",
        discussion: """
            Watch items of kinds this version does not know are kept in the queue, never dropped; \
            status names them so they can be handled by a newer version.
            """,
        examples: [Example("As JSON, for monitoring", "pipeline status --json")])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let pipeline = try await Pipeline.open(path: context.databasePath, clock: context.clock, log: context.log)
        let summary = try await pipeline.summary()
        let schema = try await pipeline.schemaVersion()
        let known = Set(WatchKind.allCases.map(\.rawValue))
        let unknownKinds = summary.watchItemsByKind.keys.filter { !known.contains($0) }.sorted()
        if context.json {
            var object = JSONObject()
            object["database"] = .string(context.databasePath)
            object["schemaVersion"] = .number(Double(schema))
            object["users"] = .number(Double(summary.users))
            object["dailyLogs"] = .number(Double(summary.dailyLogs))
            var queue = JSONObject()
            for (kind, count) in summary.watchItemsByKind.sorted(by: { $0.key < $1.key }) {
                queue[kind] = .number(Double(count))
            }
            object["watchQueue"] = .object(queue)
            object["unknownWatchKinds"] = .array(unknownKinds.map { .string($0) })
            object["deadLetters"] = .number(Double(summary.deadLetters))
            context.io.stdout.writeLine(object.jsonText)
            return .ok
        }
        let out = context.io.stdout
        out.writeLine("database     \(context.databasePath) (schema \(schema))")
        out.writeLine("users        \(summary.users)")
        out.writeLine("daily logs   \(summary.dailyLogs)")
        if summary.watchItemsByKind.isEmpty {
            out.writeLine("watch queue  empty")
        } else {
            let kinds = summary.watchItemsByKind.sorted { $0.key < $1.key }.map { kind, count in
                "\(count) \(kind)" + (known.contains(kind) ? "" : " (unknown kind, kept)")
            }
            out.writeLine("watch queue  " + kinds.joined(separator: ", "))
        }
        out.writeLine("dead letters \(summary.deadLetters)")
        return .ok
    }
}
