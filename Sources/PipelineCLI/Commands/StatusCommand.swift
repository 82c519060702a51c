import Domain
import PipelineKit
import Scheduling

/// `pipeline status`: the tasks, their requests and runs, and what needs a person's attention.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the scheduled tasks, their requests and last runs, and any problems.",
        discussion: """
            Lists each registered task with its pending, due and running requests and its last \
            success, the machine's conditions, and what the database holds. Then the diagnostics:

              never submitted   a user's chain never started (no launch since)
              chain broken      a handler succeeded without submitting its successor
              stuck             a worker died and no launch has taken its run over
              unregistered      requests of tasks this version does not know
              unknown kinds     queued watch items this version cannot apply
              dead letters      watch items that failed too often

            Reads only; changes nothing. The status is 0 even when problems are shown.
            """,
        options: [LaunchSupport.metricsFileOption],
        examples: [
            Example("Show the status", "pipeline status"),
            Example("The same as JSON", "pipeline status --json"),
        ])

    /// At most this many entries of one diagnostic are listed in text; JSON lists all.
    static let listLimit = 10

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let pipeline = try await LaunchSupport.open(context)
        let status: PipelineStatus
        do {
            status = try await pipeline.status()
        } catch {
            throw PipelineFailure(error)
        }
        try await LaunchSupport.writeMetrics(context, pipeline: pipeline)
        if context.json {
            context.io.stdout.writeLine(json(status).jsonText)
        } else {
            context.io.stdout.write(text(status))
        }
        return .ok
    }

    static func text(_ status: PipelineStatus) -> String {
        var lines = ["Tasks:"]
        let tasks = Dictionary(uniqueKeysWithValues: status.scheduler.tasks.map { ($0.identifier, $0) })
        let width = status.definitions.map(\.identifier.rawValue.count).max() ?? 0
        for definition in status.definitions {
            let name = definition.identifier.rawValue
            let kind = definition.kind == .processing ? "processing" : "refresh"
            let task = tasks[definition.identifier]
            let power = definition.requiresExternalPower ? ", on external power" : ""
            lines.append(
                "  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(kind), \(definition.cadence)\(power)"
            )
            let runs = task?.runs ?? [:]
            let outcomes = TaskOutcome.allCases.compactMap { outcome in runs[outcome].map { "\($0) \(outcome)" } }
            lines.append(
                "    pending \(task?.pending ?? 0) (due \(task?.due ?? 0)), running \(task?.running ?? 0); last success "
                    + (task?.lastSuccess.map(LaunchSupport.instant) ?? "never")
                    + (outcomes.isEmpty ? "" : "; runs: " + outcomes.joined(separator: ", ")))
        }
        let conditions = status.scheduler.conditions
        lines.append(
            "Conditions: external power \(conditions.isOnExternalPower ? "yes" : "no"), network "
                + (conditions.hasNetworkConnectivity ? "yes" : "no"))
        let queued = status.summary.watchItemsByKind.values.reduce(0, +)
        lines.append(
            "Database: \(status.summary.users) users, \(status.summary.dailyLogs) daily logs, \(queued) queued watch "
                + "items, \(status.summary.deadLetters) dead letters")

        lines.append("Diagnostics:")
        var problems: [String] = []
        func list(_ title: String, _ entries: [String]) {
            guard !entries.isEmpty else { return }
            problems.append("  \(title) (\(entries.count)):")
            problems += entries.prefix(listLimit).map { "    " + $0 }
            if entries.count > listLimit { problems.append("    … and \(entries.count - listLimit) more (see --json)") }
        }
        let scheduler = status.scheduler
        list(
            "registered but never submitted",
            scheduler.neverSubmitted.map {
                LaunchSupport.label($0.identifier, $0.scope) + ": run 'pipeline run' to start it"
            })
        list(
            "chain broken",
            scheduler.brokenChains.map { run in
                LaunchSupport.label(run.identifier, run.scope) + ": succeeded at "
                    + (run.finishedAt.map(LaunchSupport.instant) ?? "?") + " without submitting its successor"
            })
        list(
            "stuck",
            scheduler.stuck.map { request in
                LaunchSupport.label(request.identifier, request.scope) + ": worker "
                    + (request.lease?.owner ?? "?") + "'s lease expired at "
                    + (request.lease.map { LaunchSupport.instant($0.expiresAt) } ?? "?")
                    + "; the next launch runs it again"
            })
        list(
            "unregistered requests",
            scheduler.unregistered.sorted { $0.key < $1.key }.map {
                "\($0.key): \($0.value) request\($0.value == 1 ? "" : "s")"
            })
        list(
            "unknown watch kinds",
            status.unknownWatchKinds.sorted { $0.key < $1.key }.map {
                "\($0.key): \($0.value) queued item\($0.value == 1 ? "" : "s")"
            })
        if status.summary.deadLetters > 0 {
            problems.append(
                "  dead letters: \(status.summary.deadLetters) watch items failed too often and wait for a person")
        }
        lines += problems.isEmpty ? ["  none"] : problems
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ status: PipelineStatus) -> JSONValue {
        let tasks = Dictionary(uniqueKeysWithValues: status.scheduler.tasks.map { ($0.identifier, $0) })
        func chain(_ identifier: TaskIdentifier, _ scope: TaskScope) -> JSONObject {
            ["identifier": .string(identifier.rawValue), "user": scope.user.map { .string($0.rawValue) } ?? .null]
        }
        let definitions: [JSONValue] = status.definitions.map { definition in
            let task = tasks[definition.identifier]
            var runs = JSONObject()
            for outcome in TaskOutcome.allCases { runs[outcome.rawValue] = .number(Double(task?.runs[outcome] ?? 0)) }
            return .object([
                "identifier": .string(definition.identifier.rawValue),
                "type": .string(definition.kind == .processing ? "processing" : "refresh"),
                "cadence": .string(definition.cadence),
                "requiresExternalPower": .bool(definition.requiresExternalPower),
                "pending": .number(Double(task?.pending ?? 0)),
                "due": .number(Double(task?.due ?? 0)),
                "running": .number(Double(task?.running ?? 0)),
                "lastSuccess": task?.lastSuccess.map { .string(LaunchSupport.instant($0)) } ?? .null,
                "runs": .object(runs),
            ])
        }
        let scheduler = status.scheduler
        var unknownKinds = JSONObject()
        for (kind, count) in status.unknownWatchKinds.sorted(by: { $0.key < $1.key }) {
            unknownKinds[kind] = .number(Double(count))
        }
        var unregistered = JSONObject()
        for (identifier, count) in scheduler.unregistered.sorted(by: { $0.key < $1.key }) {
            unregistered[identifier.rawValue] = .number(Double(count))
        }
        let diagnostics: JSONObject = [
            "neverSubmitted": .array(scheduler.neverSubmitted.map { .object(chain($0.identifier, $0.scope)) }),
            "chainBroken": .array(
                scheduler.brokenChains.map { run in
                    var entry = chain(run.identifier, run.scope)
                    entry["finishedAt"] = run.finishedAt.map { .string(LaunchSupport.instant($0)) } ?? .null
                    return .object(entry)
                }),
            "stuck": .array(
                scheduler.stuck.map { request in
                    var entry = chain(request.identifier, request.scope)
                    entry["worker"] = request.lease.map { .string($0.owner) } ?? .null
                    entry["leaseExpiredAt"] =
                        request.lease.map { .string(LaunchSupport.instant($0.expiresAt)) } ?? .null
                    return .object(entry)
                }),
            "unregisteredRequests": .object(unregistered),
            "unknownWatchKinds": .object(unknownKinds),
            "deadLetters": .number(Double(status.summary.deadLetters)),
        ]
        var watch = JSONObject()
        for (kind, count) in status.summary.watchItemsByKind.sorted(by: { $0.key < $1.key }) {
            watch[kind] = .number(Double(count))
        }
        return .object([
            "now": .string(LaunchSupport.instant(scheduler.now)),
            "tasks": .array(definitions),
            "conditions": .object([
                "externalPower": .bool(scheduler.conditions.isOnExternalPower),
                "network": .bool(scheduler.conditions.hasNetworkConnectivity),
            ]),
            "database": .object([
                "users": .number(Double(status.summary.users)),
                "dailyLogs": .number(Double(status.summary.dailyLogs)),
                "watchItems": .object(watch),
            ]),
            "diagnostics": .object(diagnostics),
            "healthy": .bool(!status.hasProblems),
        ])
    }
}
