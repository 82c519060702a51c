import Domain
import PipelineKit
import Storage

/// `pipeline outbox`: the messages waiting for a sender, and their acknowledgement.
enum OutboxCommand: Command {
    static let spec = CommandSpec(
        name: "outbox",
        abstract: "List the reminders and insights waiting to be sent, or acknowledge them.",
        discussion: """
            Without --ack, lists the unacknowledged messages, oldest first: id, user, day, kind and \
            text (with --json, one JSON object per line). A sender delivers them, then acknowledges \
            each with --ack, which removes it from the list. A task that runs twice on a day never \
            queues a second message of the same kind for that day.

            Acknowledging a message twice changes nothing; an id that does not exist is reported \
            and the status is 65, the others are acknowledged.
            """,
        options: [
            .option("user", .user, help: "Only this user's messages."),
            .option(
                "ack", .integer(1...Int.max), valueName: "id", help: "Acknowledge this message as sent.",
                repeatable: true),
        ],
        examples: [
            Example("List what waits to be sent", "pipeline outbox --json"),
            Example("Acknowledge messages 12 and 13", "pipeline outbox --ack 12 --ack 13"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let pipeline = try await context.openPipeline()
        let ids = context.arguments.strings("ack").compactMap(Int64.init)
        if !ids.isEmpty {
            let results = try await pipeline.acknowledgeOutbox(ids)
            let unknown = ids.filter { results[$0] == .unknown }
            for id in unknown {
                context.io.stderr.writeLine("Error: --ack: no outbox message has id \(id)")
            }
            return unknown.isEmpty ? .ok : .dataError
        }
        let messages = try await pipeline.outbox(user: context.arguments.user("user"))
        let table =
            context.json
            ? nil
            : TextTable(
                [.init("id", .right), .init("user"), .init("day"), .init("kind"), .init("message")],
                writer: context.io.stdout)
        defer { table?.finish() }
        for message in messages {
            guard !context.io.stdout.isClosed else { break }
            if let table {
                table.add([
                    String(message.id), message.user.rawValue, message.day.description,
                    PrintableExcerpt.of(message.kind), PrintableExcerpt.of(message.body, limit: 2_000),
                ])
            } else {
                let object: JSONObject = [
                    "id": .number(Double(message.id)),
                    "user": .string(message.user.rawValue),
                    "kind": .string(message.kind),
                    "day": .string(message.day.description),
                    "body": .string(message.body),
                    "createdAt": .string(ISO8601Instant.string(from: message.createdAt)),
                ]
                context.io.stdout.writeLine(object.jsonText)
            }
        }
        return .ok
    }
}
