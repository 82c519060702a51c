import Domain
import PipelineKit
import Scheduling
import Storage

/// How the scheduler's values print: runs, requests and launch reports as the commands' `--json` writes them, and
/// a task with its scope in words.
extension TaskRun {
    /// A run as `pipeline history --json` prints it.
    var json: JSONValue {
        .object([
            "identifier": .string(identifier.rawValue),
            "user": scope.user.map { .string($0.rawValue) } ?? .null,
            "startedAt": .string(ISO8601Instant.string(from: startedAt)),
            "finishedAt": finishedAt.map { .string(ISO8601Instant.string(from: $0)) } ?? .null,
            "outcome": outcome.map { .string($0.rawValue) } ?? .null,
            "reason": reason.map(JSONValue.string) ?? .null,
            "periods": .number(Double(periods)),
        ])
    }
}

extension ScheduledRequest {
    var json: JSONValue {
        .object([
            "identifier": .string(identifier.rawValue),
            "user": scope.user.map { .string($0.rawValue) } ?? .null,
            "earliestBeginDate": earliestBeginDate.map { .string(ISO8601Instant.string(from: $0)) } ?? .null,
            "attempts": .number(Double(attempts)),
        ])
    }
}

extension LaunchReport {
    var json: JSONValue {
        .object([
            "startedChains": .number(Double(startedChains)),
            "runCount": .number(Double(runCount)),
            "runs": .array(runs.map(\.json)),
            "reclaimed": .number(Double(reclaimed)),
            "waitingForConditions": .array(waitingForConditions.map(\.json)),
            "runningElsewhere": .array(runningElsewhere.map(\.json)),
            "discarded": .number(Double(discarded.count)),
            "pruned": .object([
                "runs": .number(Double(pruned.runs)),
                "outboxMessages": .number(Double(pruned.outboxMessages)),
                "deadLetters": .number(Double(pruned.deadLetters)),
                "discardedRequests": .number(Double(pruned.discardedRequests)),
            ]),
        ])
    }
}

extension TaskIdentifier {
    /// `health-refresh for ada`, `cleanup (global)`.
    func label(for scope: TaskScope) -> String {
        scope.user.map { "\(self) for \($0)" } ?? "\(self) (global)"
    }
}
