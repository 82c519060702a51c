import Domain
import PipelineKit
import Scheduling

/// `pipeline status`: what the database holds, the scheduled tasks, and what needs attention.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show what the database holds, the scheduled tasks and their runs, and problems.",
        discussion: """
            Shows users, daily logs, queued watch items and dead letters; then each scheduled task \
            with its pending, due and running requests and its last success, and the machine's \
            conditions; then the diagnostics:

              never submitted   a user's chain never started (no launch since)
              chain broken      a handler succeeded without submitting its successor
              stuck             a worker died and no launch has taken its run over
              unregistered      requests of tasks this version does not know
              unknown kinds     queued watch items this version cannot apply (kept)
              dead letters      watch items that failed too often

            Reads only; changes nothing. The status is 0 even when problems are shown.
            """,
        options: [LaunchSupport.metricsFileOption],
        examples: [
            Example("Show the status", "pipeline status"),
            Example("As JSON, for monitoring", "pipeline status --json"),
        ])

    /// At most this many entries of one diagnostic are listed in text; JSON lists all.
    static let listLimit = 10

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let pipeline = try await LaunchSupport.open(context)
        let schema = try await pipeline.schemaVersion()
        let status = try await pipeline.status()
        try await LaunchSupport.writeMetrics(context, pipeline: pipeline)
        if context.json {
            context.io.stdout.writeLine(json(status, database: pipeline.store.location, schema: schema).jsonText)
        } else {
            context.io.stdout.write(text(status, database: pipeline.store.location, schema: schema))
        }
        return .ok
    }

    /// Watch kinds and worker names come from the database, where any version or
    /// input may have put them: text escapes them (`PrintableExcerpt`); JSON's own escaping suffices.
    static func text(_ status: PipelineStatus, database: String, schema: Int) -> String {
        let summary = status.summary
        var lines = [
            "database     \(database) (schema \(schema))",
            "users        \(summary.users)",
            "daily logs   \(summary.dailyLogs)",
        ]
        if summary.watchItemsByKind.isEmpty {
            lines.append("watch queue  empty")
        } else {
            let kinds = summary.watchItemsByKind.sorted { $0.key < $1.key }.map { kind, count in
                "\(count) \(PrintableExcerpt.of(kind))"
                    + (status.unknownWatchKinds[kind] == nil ? "" : " (unknown kind, kept)")
            }
            lines.append("watch queue  " + kinds.joined(separator: ", "))
        }
        lines.append("dead letters \(summary.deadLetters)")
        let conditions = status.scheduler.conditions
        lines.append(
            "conditions   external power \(conditions.isOnExternalPower ? "yes" : "no"), network "
                + (conditions.hasNetworkConnectivity ? "yes" : "no"))

        lines.append("tasks:")
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
                    + (task?.lastSuccess.map { ISO8601Instant.string(from: $0) } ?? "never")
                    + (outcomes.isEmpty ? "" : "; runs: " + outcomes.joined(separator: ", ")))
        }

        lines.append("diagnostics:")
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
                    + (run.finishedAt.map { ISO8601Instant.string(from: $0) } ?? "?")
                    + " without submitting its successor"
            })
        list(
            "stuck",
            scheduler.stuck.map { request in
                LaunchSupport.label(request.identifier, request.scope) + ": worker "
                    + (request.lease.map { PrintableExcerpt.of($0.owner) } ?? "?") + "'s lease expired at "
                    + (request.lease.map { ISO8601Instant.string(from: $0.expiresAt) } ?? "?")
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
                "\(PrintableExcerpt.of($0.key)): \($0.value) queued item\($0.value == 1 ? "" : "s")"
            })
        if summary.deadLetters > 0 {
            problems.append("  dead letters: \(summary.deadLetters) watch items failed too often and wait for a person")
        }
        lines += problems.isEmpty ? ["  none"] : problems
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ status: PipelineStatus, database: String, schema: Int) -> JSONValue {
        let summary = status.summary
        var object = JSONObject()
        object["database"] = .string(database)
        object["schemaVersion"] = .number(Double(schema))
        object["users"] = .number(Double(summary.users))
        object["dailyLogs"] = .number(Double(summary.dailyLogs))
        var queue = JSONObject()
        for (kind, count) in summary.watchItemsByKind.sorted(by: { $0.key < $1.key }) {
            queue[kind] = .number(Double(count))
        }
        object["watchQueue"] = .object(queue)
        object["unknownWatchKinds"] = .array(status.unknownWatchKinds.keys.sorted().map { .string($0) })
        object["deadLetters"] = .number(Double(summary.deadLetters))

        let scheduler = status.scheduler
        object["now"] = .string(ISO8601Instant.string(from: scheduler.now))
        object["conditions"] = .object([
            "externalPower": .bool(scheduler.conditions.isOnExternalPower),
            "network": .bool(scheduler.conditions.hasNetworkConnectivity),
        ])
        let tasks = Dictionary(uniqueKeysWithValues: scheduler.tasks.map { ($0.identifier, $0) })
        object["tasks"] = .array(
            status.definitions.map { definition in
                let task = tasks[definition.identifier]
                var runs = JSONObject()
                for outcome in TaskOutcome.allCases {
                    runs[outcome.rawValue] = .number(Double(task?.runs[outcome] ?? 0))
                }
                return .object([
                    "identifier": .string(definition.identifier.rawValue),
                    "type": .string(definition.kind == .processing ? "processing" : "refresh"),
                    "cadence": .string(definition.cadence),
                    "requiresExternalPower": .bool(definition.requiresExternalPower),
                    "pending": .number(Double(task?.pending ?? 0)),
                    "due": .number(Double(task?.due ?? 0)),
                    "running": .number(Double(task?.running ?? 0)),
                    "lastSuccess": task?.lastSuccess.map { .string(ISO8601Instant.string(from: $0)) } ?? .null,
                    "runs": .object(runs),
                ])
            })

        func chain(_ identifier: TaskIdentifier, _ scope: TaskScope) -> JSONObject {
            ["identifier": .string(identifier.rawValue), "user": scope.user.map { .string($0.rawValue) } ?? .null]
        }
        var unknownKinds = JSONObject()
        for (kind, count) in status.unknownWatchKinds.sorted(by: { $0.key < $1.key }) {
            unknownKinds[kind] = .number(Double(count))
        }
        var unregistered = JSONObject()
        for (identifier, count) in scheduler.unregistered.sorted(by: { $0.key < $1.key }) {
            unregistered[identifier.rawValue] = .number(Double(count))
        }
        object["diagnostics"] = .object([
            "neverSubmitted": .array(scheduler.neverSubmitted.map { .object(chain($0.identifier, $0.scope)) }),
            "chainBroken": .array(
                scheduler.brokenChains.map { run in
                    var entry = chain(run.identifier, run.scope)
                    entry["finishedAt"] = run.finishedAt.map { .string(ISO8601Instant.string(from: $0)) } ?? .null
                    return .object(entry)
                }),
            "stuck": .array(
                scheduler.stuck.map { request in
                    var entry = chain(request.identifier, request.scope)
                    entry["worker"] = request.lease.map { .string($0.owner) } ?? .null
                    entry["leaseExpiredAt"] =
                        request.lease.map { .string(ISO8601Instant.string(from: $0.expiresAt)) } ?? .null
                    return .object(entry)
                }),
            "unregisteredRequests": .object(unregistered),
            "unknownWatchKinds": .object(unknownKinds),
            "deadLetters": .number(Double(summary.deadLetters)),
        ])
        object["healthy"] = .bool(!status.hasProblems)
        return .object(object)
    }
}
