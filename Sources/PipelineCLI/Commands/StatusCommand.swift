import Domain
import Foundation
import PipelineKit
import Scheduling
import Storage

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
              overdue           requests due for longer than their task's cadence: no
                                launch ran them (is cron running 'pipeline run', and
                                for ml-retrain 'pipeline retrain'?)
              waiting           processing requests whose conditions (external power,
                                network) have been unmet for more than a day
              discarded         requests whose retries ran out ('pipeline requests retry')

            It also shows when the last launch began, by any process. Reads only; changes \
            nothing, and answers while another process holds the database's write lock. The \
            status is 0 even when problems are shown; with --check it is 1 when there is any \
            problem, each printed on standard error, and nothing else is printed (0 and silent \
            when healthy), so a monitor can page on it; it is 1 too when the status cannot be read \
            at all (a server down, a wrong password, no database at the path), with the reason. \
            --json has "healthy" the same way.
            """,
        options: [
            SchedulerLaunch.metricsFileOption,
            .flag("check", help: "Print only the problems, on standard error; exit 1 if there are any."),
        ],
        examples: [
            Example("Show the status", "pipeline status"),
            Example("As JSON, for monitoring", "pipeline status --json"),
            Example("Page when unhealthy (cron, a monitor's check)", "pipeline status --check"),
        ])

    /// At most this many entries of one diagnostic are listed in text; JSON lists all.
    static let listLimit = 10

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        if context.arguments.flag("check") { return await check(context) }
        let pipeline = try await context.openPipeline()
        let schema = try await pipeline.schemaVersion()
        let status = try await pipeline.status()
        try await SchedulerLaunch.writeMetrics(context, pipeline: pipeline)
        if context.json {
            context.io.stdout.writeLine(json(status, database: pipeline.location, schema: schema).jsonText)
        } else {
            context.io.stdout.write(text(status, database: pipeline.location, schema: schema))
        }
        return .ok
    }

    /// `--check`: 0 and silent only when the status could be read and shows no problem; 1 otherwise, with each
    /// problem on stderr — also when the database cannot be opened or read at all (a server that is down, a
    /// wrong password, a missing file), since a monitor that pages on 1 must page then too.
    static func check(_ context: CommandContext) async -> ExitStatus {
        do {
            let pipeline = try await context.openPipeline()
            let status = try await pipeline.status()
            try await SchedulerLaunch.writeMetrics(context, pipeline: pipeline)
            for (title, entries) in problems(status) {
                for entry in entries { context.io.stderr.writeLine("\(title): \(entry)") }
            }
            return status.hasProblems ? .failure : .ok
        } catch {
            let message = (error as? any CLIReportableError)?.message ?? "\(error)"
            context.io.stderr.writeLine("Error: \(message)")
            return .failure
        }
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
        lines.append(
            "last launch  "
                + (status.scheduler.lastLaunch.map {
                    ISO8601Instant.string(from: $0.launchedAt) + " by " + PrintableExcerpt.of($0.worker)
                } ?? "never"))
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
            let discarded = task?.discarded ?? DiscardedTaskRequestCounts()
            var counts = "    pending \(task?.pending ?? 0) (due \(task?.due ?? 0)), running \(task?.running ?? 0)"
            if let abandoned = task?.abandoned, abandoned > 0 { counts += ", abandoned \(abandoned) (see stuck)" }
            if discarded.attempts > 0 { counts += ", discarded \(discarded.attempts)" }
            if discarded.cancelled > 0 { counts += ", cancelled \(discarded.cancelled)" }
            let lastSuccess = task?.lastSuccess.map { ISO8601Instant.string(from: $0) } ?? "never"
            lines.append(
                counts + "; last success " + lastSuccess
                    + (outcomes.isEmpty ? "" : "; runs: " + outcomes.joined(separator: ", ")))
        }

        lines.append("diagnostics:")
        var problems: [String] = []
        for (title, entries) in self.problems(status) {
            problems.append("  \(title) (\(entries.count)):")
            problems += entries.prefix(listLimit).map { "    " + $0 }
            if entries.count > listLimit { problems.append("    … and \(entries.count - listLimit) more (see --json)") }
        }
        lines += problems.isEmpty ? ["  none"] : problems
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every problem, by diagnostic, in the order text lists them: what `--check` prints.
    static func problems(_ status: PipelineStatus) -> [(title: String, entries: [String])] {
        var problems: [(title: String, entries: [String])] = []
        func list(_ title: String, _ entries: [String]) {
            if !entries.isEmpty { problems.append((title, entries)) }
        }
        let summary = status.summary
        let scheduler = status.scheduler
        list(
            "registered but never submitted",
            scheduler.neverSubmitted.map {
                $0.identifier.label(for: $0.scope) + ": run 'pipeline run' to start it"
            })
        list(
            "chain broken",
            scheduler.brokenChains.map { run in
                run.identifier.label(for: run.scope) + ": succeeded at "
                    + (run.finishedAt.map { ISO8601Instant.string(from: $0) } ?? "?")
                    + " without submitting its successor; '\(launcher(run.identifier))' starts it again"
            })
        list(
            "stuck",
            scheduler.stuck.map { request in
                request.identifier.label(for: request.scope) + ": worker "
                    + (request.lease.map { PrintableExcerpt.of($0.owner) } ?? "?") + "'s lease expired at "
                    + (request.lease.map { ISO8601Instant.string(from: $0.expiresAt) } ?? "?")
                    + "; the next '\(launcher(request.identifier))' runs it again"
            })
        list(
            "unregistered requests",
            scheduler.unregistered.sorted { $0.key < $1.key }.map {
                "\($0.key): \($0.value) request\($0.value == 1 ? "" : "s") no launch of this version runs; "
                    + "'pipeline requests --task \($0.key)' lists them, 'pipeline requests cancel ID…' stops them"
            })
        list(
            "unknown watch kinds",
            status.unknownWatchKinds.sorted { $0.key < $1.key }.map {
                "\(PrintableExcerpt.of($0.key)): \($0.value) queued item\($0.value == 1 ? "" : "s"), kept until a version "
                    + "that knows the kind applies them ('pipeline --version' shows this one)"
            })
        // How an overdue and a waiting entry begin: the task, its requests and since when they are due.
        func due(_ identifier: TaskIdentifier, _ requests: Int, since oldestDueAt: Date) -> String {
            "\(identifier): \(requests) request\(requests == 1 ? "" : "s") due since "
                + ISO8601Instant.string(from: oldestDueAt)
        }
        list(
            "overdue",
            scheduler.overdue.map { late in
                due(late.identifier, late.requests, since: late.oldestDueAt) + ", more than its cadence ("
                    + Self.duration(late.cadence) + ") ago; last launch "
                    + (scheduler.lastLaunch.map { ISO8601Instant.string(from: $0.launchedAt) } ?? "never")
                    + ": is cron running '\(launcher(late.identifier))'?"
            })
        list(
            "waiting on conditions",
            scheduler.waitingOnConditions.map { waiting in
                due(waiting.identifier, waiting.requests, since: waiting.oldestDueAt) + " wait for "
                    + waiting.unmet.joined(separator: " and ") + ", for more than a day; give the machine "
                    + waiting.unmet.joined(separator: " and ")
                    + ", or run '\(launcher(waiting.identifier))' on one that has it"
            })
        list(
            "discarded",
            scheduler.tasks.filter { $0.discarded.attempts > 0 }.map { task in
                "\(task.identifier): \(task.discarded.attempts) request\(task.discarded.attempts == 1 ? "" : "s") "
                    + "ran out of attempts; see 'pipeline requests --state discarded', then 'pipeline requests retry'"
            })
        if summary.deadLetters > 0 {
            list(
                "dead letters",
                [
                    "\(summary.deadLetters) watch items failed too often and wait for a person "
                        + "('pipeline dead-letters', then 'pipeline dead-letters requeue')"
                ])
        }
        return problems
    }

    /// The command whose launches run `identifier`: `pipeline retrain` for the processing task, `pipeline run`
    /// for the others.
    static func launcher(_ identifier: TaskIdentifier) -> String {
        identifier == PipelineTasks.mlRetrain ? "pipeline retrain" : "pipeline run"
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
                    "abandoned": .number(Double(task?.abandoned ?? 0)),
                    "discarded": .number(Double(task?.discarded.attempts ?? 0)),
                    "cancelled": .number(Double(task?.discarded.cancelled ?? 0)),
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
            "overdue": .array(
                scheduler.overdue.map { late in
                    .object([
                        "identifier": .string(late.identifier.rawValue), "requests": .number(Double(late.requests)),
                        "oldestDueAt": .string(ISO8601Instant.string(from: late.oldestDueAt)),
                        "cadenceSeconds": .number(late.cadence),
                    ])
                }),
            "waitingOnConditions": .array(
                scheduler.waitingOnConditions.map { waiting in
                    .object([
                        "identifier": .string(waiting.identifier.rawValue),
                        "requests": .number(Double(waiting.requests)),
                        "oldestDueAt": .string(ISO8601Instant.string(from: waiting.oldestDueAt)),
                        "unmet": .array(waiting.unmet.map(JSONValue.string)),
                    ])
                }),
            "discarded": .number(Double(scheduler.discardedRequests)),
        ])
        object["lastLaunch"] =
            scheduler.lastLaunch.map {
                .object([
                    "at": .string(ISO8601Instant.string(from: $0.launchedAt)), "worker": .string($0.worker),
                ])
            } ?? .null
        object["healthy"] = .bool(!status.hasProblems)
        return .object(object)
    }

    /// `4 h`, `1 day`, `7 days`: a cadence in words.
    static func duration(_ seconds: TimeInterval) -> String {
        if seconds >= 86_400, seconds.truncatingRemainder(dividingBy: 86_400) == 0 {
            let days = Int(seconds / 86_400)
            return "\(days) day\(days == 1 ? "" : "s")"
        }
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600)) h" }
        return "\(Int(seconds / 60)) min"
    }
}
