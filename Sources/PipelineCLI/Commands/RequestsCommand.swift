import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage

/// `pipeline requests`: the scheduled requests an operator looks at and acts on.
enum RequestsCommand: Command {
    static let spec = CommandSpec(
        name: "requests",
        abstract: "List the task requests, cancel them, or retry the discarded ones.",
        discussion: """
            Without an action, lists requests oldest due first, one per line: id, task, user (or \
            "global"), state, when it may begin, attempts, the lease owner of a running one, and \
            its last error. States:

              pending     waiting for its time
              due         the next launch runs it (if its conditions are met)
              running     a worker holds its lease
              abandoned   its worker died; the next launch takes it over
              discarded   its retries ran out (--max-attempts of 'pipeline run')
              cancelled   an operator cancelled it

            'cancel ID ...' takes those pending requests out of the schedule; 'cancel --user U' \
            all of a user's (with --task, one task's). A cancelled chain stays stopped, even \
            across launches, until it is retried. A running request is left to finish its run: \
            it is reported and the status is 75 (try again later).

            'retry ID ...' puts those discarded or cancelled requests back, due now, with their \
            attempts reset; 'retry' alone every discarded one (with --task and --user, those \
            only). Where the chain has a pending request already, that one is made due now. An \
            id that matches nothing is reported and the status is 65; the others are done.

            With --json, one JSON object per line: the listing's fields, or what each action did.
            """,
        options: [
            .option("task", .task, help: "Only requests of this task, e.g. ml-retrain."),
            .option("user", .user, help: "Only this user's requests."),
            .option(
                "state", .choice(TaskRequestState.allCases.map(\.rawValue)), valueName: "state",
                help: "Only requests in this state: "
                    + TaskRequestState.allCases.map(\.rawValue).joined(separator: ", ") + ".",
                repeatable: true),
        ],
        positionals: PositionalSpec.action(Action.self, ids: "Request ids for the action."),
        examples: [
            Example("Everything discarded, with its last error", "pipeline requests --state discarded"),
            Example("alice's requests as JSON Lines", "pipeline requests --user alice --json"),
            Example("Cancel request 42", "pipeline requests cancel 42"),
            Example("Stop alice's reminders", "pipeline requests cancel --user alice --task engagement-daily"),
            Example("Put every discarded retrain back", "pipeline requests retry --task ml-retrain"),
        ])

    private enum Action: String, CaseIterable {
        case cancel, retry
    }

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let task = context.arguments.task("task")
        let user = context.arguments.user("user")
        let ids = try context.ids(of: "a request")
        switch try context.action(Action.self) {
        case nil:
            return try await list(context, task: task, user: user)
        case .cancel:
            guard !ids.isEmpty || user != nil || task != nil else {
                throw CLIError.usage("cancel needs request ids, or --user (and --task) to cancel a chain")
            }
            return try await cancel(context, ids: ids.isEmpty ? nil : ids, task: task, user: user)
        case .retry:
            return try await retry(context, ids: ids.isEmpty ? nil : ids, task: task, user: user)
        }
    }

    private static func list(_ context: CommandContext, task: TaskIdentifier?, user: UserID?) async throws
        -> ExitStatus
    {
        let states = context.arguments.strings("state").compactMap(TaskRequestState.init(rawValue:))
        let pipeline = try await context.openPipeline()
        let requests = try await pipeline.operatorTaskRequests(
            task: task, user: user, states: states.isEmpty ? nil : Set(states))
        if context.json {
            for request in requests {
                guard !context.io.stdout.isClosed else { break }
                context.io.stdout.writeLine(json(request).jsonText)
            }
            return .ok
        }
        let table = TextTable(
            [
                .init("id", .right), .init("task"), .init("user"), .init("state"), .init("due"),
                .init("attempts", .right), .init("lease"), .init("last error"),
            ], writer: context.io.stdout)
        for request in requests {
            guard !table.isClosed else { break }
            table.add(cells(request))
        }
        table.finish()
        return .ok
    }

    private static func cancel(_ context: CommandContext, ids: [Int64]?, task: TaskIdentifier?, user: UserID?)
        async throws -> ExitStatus
    {
        let pipeline = try await context.openPipeline()
        let result = try await pipeline.cancelTaskRequests(ids: ids, task: task, user: user)
        let unknown = (ids ?? []).filter { !result.cancelled.contains($0) && !result.running.contains($0) }
        report(context, done: result.cancelled, verb: "cancelled")
        for id in result.running {
            context.io.stderr.writeLine(
                "Error: request \(id) is running; it was left to finish its run. Cancel again once it has ended.")
        }
        for id in unknown {
            context.io.stderr.writeLine("Error: no pending or running request has id \(id)")
        }
        if !unknown.isEmpty { return .dataError }
        return result.running.isEmpty ? .ok : .temporaryFailure
    }

    private static func retry(_ context: CommandContext, ids: [Int64]?, task: TaskIdentifier?, user: UserID?)
        async throws -> ExitStatus
    {
        let pipeline = try await context.openPipeline()
        let retried = try await pipeline.retryTaskRequests(ids: ids, task: task, user: user)
        report(context, done: retried, verb: "retried")
        let unknown = (ids ?? []).filter { !retried.contains($0) }
        for id in unknown {
            context.io.stderr.writeLine("Error: no discarded or cancelled request has id \(id)")
        }
        return unknown.isEmpty ? .ok : .dataError
    }

    /// One line per request an action changed: `cancelled 42`, or `{"id":42,"action":"cancelled"}`.
    private static func report(_ context: CommandContext, done ids: [Int64], verb: String) {
        for id in ids {
            if context.json {
                let object: JSONObject = ["id": .number(Double(id)), "action": .string(verb)]
                context.io.stdout.writeLine(object.jsonText)
            } else {
                context.io.stdout.writeLine("\(verb) \(id)")
            }
        }
    }

    /// Identifiers, lease owners and errors come from the database, where any version may have put
    /// them: text escapes them (`PrintableExcerpt`).
    static func cells(_ request: OperatorTaskRequest) -> [String] {
        [
            String(request.id), PrintableExcerpt.of(request.identifier),
            request.user.map { PrintableExcerpt.of($0) } ?? "global",
            request.state.rawValue,
            request.earliestBeginDate.map { ISO8601Instant.string(from: $0) } ?? "-",
            String(request.attempts), request.leaseOwner.map { PrintableExcerpt.of($0) } ?? "",
            request.lastError.map { PrintableExcerpt.of($0) } ?? "",
        ]
    }

    static func json(_ request: OperatorTaskRequest) -> JSONValue {
        func instant(_ date: Date?) -> JSONValue { date.map { .string(ISO8601Instant.string(from: $0)) } ?? .null }
        return .object([
            "id": .number(Double(request.id)),
            "identifier": .string(request.identifier),
            "user": request.user.map(JSONValue.string) ?? .null,
            "state": .string(request.state.rawValue),
            "type": .string(request.kind.rawValue),
            "earliestBeginDate": instant(request.earliestBeginDate),
            "attempts": .number(Double(request.attempts)),
            "lastError": request.lastError.map(JSONValue.string) ?? .null,
            "leaseOwner": request.leaseOwner.map(JSONValue.string) ?? .null,
            "leaseExpiresAt": instant(request.leaseExpiresAt),
            "discardedAt": instant(request.discardedAt),
        ])
    }
}
