import Domain
import PipelineKit
import Storage

/// `pipeline dead-letters`: watch items that failed too often, and putting them back in the queue.
enum DeadLettersCommand: Command {
    static let spec = CommandSpec(
        name: "dead-letters",
        abstract: "List the watch items that failed too often, or requeue them.",
        discussion: """
            A watch item that fails to apply \(WatchItem.maxAttempts) times moves to the dead \
            letters; nothing is dropped. Without an action, lists them oldest first: id, user, \
            kind, when it was queued and when it failed, attempts and the last error (never the \
            payload, which holds health data). --all lists the requeued ones too.

            'requeue ID ...' queues those dead letters again as new watch items with no attempts \
            (the next ingest or health-refresh applies them) and marks them resolved; 'requeue' \
            alone requeues every one (with --user, that user's). Resolved dead letters are pruned \
            after 'pipeline run --keep-history' days. An id that matches no waiting dead letter \
            is reported and the status is 65; the others are requeued.

            With --json, one JSON object per line.
            """,
        options: [
            .option("user", .user, help: "Only this user's dead letters."),
            .flag("all", help: "List requeued dead letters too."),
        ],
        positionals: PositionalSpec.action(Action.self, ids: "Dead letter ids to requeue."),
        examples: [
            Example("What failed, and why", "pipeline dead-letters"),
            Example("Requeue dead letters 7 and 9 after fixing the cause", "pipeline dead-letters requeue 7 9"),
            Example("Requeue all of alice's", "pipeline dead-letters requeue --user alice --json"),
        ])

    private enum Action: String, CaseIterable {
        case requeue
    }

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let user = context.arguments.user("user")
        let ids = try context.ids(of: "a dead letter")
        switch try context.action(Action.self) {
        case nil:
            let pipeline = try await context.openPipeline()
            let letters = try await pipeline.deadLetters(user: user, includeResolved: context.arguments.flag("all"))
            for letter in letters {
                guard !context.io.stdout.isClosed else { break }
                context.io.stdout.writeLine(context.json ? json(letter).jsonText : text(letter))
            }
            return .ok
        case .requeue:
            let pipeline = try await context.openPipeline()
            let requeued = try await pipeline.requeueDeadLetters(ids: ids.isEmpty ? nil : ids, user: user)
            for (letter, item) in requeued.sorted(by: { $0.key < $1.key }) {
                if context.json {
                    let object: JSONObject = ["id": .number(Double(letter)), "watchItem": .number(Double(item))]
                    context.io.stdout.writeLine(object.jsonText)
                } else {
                    context.io.stdout.writeLine("requeued \(letter) as watch item \(item)")
                }
            }
            let unknown = ids.filter { requeued[$0] == nil }
            for id in unknown {
                context.io.stderr.writeLine("Error: no dead letter waiting to be requeued has id \(id)")
            }
            return unknown.isEmpty ? .ok : .dataError
        }
    }

    /// Kinds and errors come from the input and the database: text escapes them.
    static func text(_ letter: DeadLetter) -> String {
        var fields = [
            String(letter.item.id), letter.item.user.rawValue, PrintableExcerpt.of(letter.item.kind),
            "queued " + ISO8601Instant.string(from: letter.item.enqueuedAt),
            "failed " + ISO8601Instant.string(from: letter.failedAt), "attempts \(letter.item.attempts)",
        ]
        if let resolved = letter.resolvedAt {
            fields.append(
                "requeued " + ISO8601Instant.string(from: resolved)
                    + (letter.requeuedAs.map { " as watch item \($0)" } ?? ""))
        }
        fields.append("last error: " + PrintableExcerpt.of(letter.item.lastError ?? ""))
        return fields.joined(separator: "  ")
    }

    static func json(_ letter: DeadLetter) -> JSONValue {
        .object([
            "id": .number(Double(letter.item.id)),
            "user": .string(letter.item.user.rawValue),
            "kind": .string(letter.item.kind),
            "enqueuedAt": .string(ISO8601Instant.string(from: letter.item.enqueuedAt)),
            "failedAt": .string(ISO8601Instant.string(from: letter.failedAt)),
            "attempts": .number(Double(letter.item.attempts)),
            "lastError": letter.item.lastError.map(JSONValue.string) ?? .null,
            "resolvedAt": letter.resolvedAt.map { .string(ISO8601Instant.string(from: $0)) } ?? .null,
            "requeuedAs": letter.requeuedAs.map { .number(Double($0)) } ?? .null,
        ])
    }
}
