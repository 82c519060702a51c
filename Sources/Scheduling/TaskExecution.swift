import Domain
import Foundation

/// Supervises one run: starts the handler in its own Swift task, races completion against the
/// budget, and at expiry calls the expiration handler and cancels the work cooperatively.
///
/// The run ends when the task is completed and the handler has returned; or, after expiry, when the
/// handler returns or the grace period runs out (then the work is abandoned, still cancelled). A
/// handler that returns without completing is waited for until its budget runs out, as on iOS.
struct TaskExecution {
    let task: BackgroundTask
    let handler: TaskHandler
    let timer: any ExpiryTimer
    let grace: TimeInterval
    let log: any LogSink
    /// Real seconds the run waited between its claim and its start (behind others claimed with it):
    /// its budget counts from the claim, which its lease covers.
    var waited: TimeInterval = 0

    func run() async -> (outcome: TaskOutcome, reason: String?) {
        let (events, continuation) = AsyncStream.makeStream(of: BackgroundTask.Event.self)
        let task = self.task
        let handler = self.handler
        let timer = self.timer
        task.attach(continuation)
        let work = Task {
            await handler(task)
            task.send(.returned)
        }
        let budget = Task {
            do throws(CancellationError) {
                let waited = min(self.waited, task.budget)
                try await timer.wait(task.budget - waited, from: task.startedAt.addingTimeInterval(waited))
                task.send(.expired)
            } catch {}
        }
        var graceTimer: Task<Void, Never>?
        func startGrace() {
            guard graceTimer == nil else { return }
            let grace = self.grace
            graceTimer = Task {
                do throws(CancellationError) {
                    try await timer.wait(grace, from: task.startedAt.addingTimeInterval(task.budget))
                    task.send(.graceOver)
                } catch {}
            }
        }

        var returned = false
        var returnedWithoutCompleting = false
        var ended = false
        await withTaskCancellationHandler {
            loop: for await event in events {
                switch event {
                case .completed:
                    if returned {
                        ended = true
                        break loop
                    }
                case .returned:
                    returned = true
                    if task.isCompleted || task.isExpired {
                        ended = true
                        break loop
                    }
                    returnedWithoutCompleting = true
                case .expired:
                    if !task.isCompleted {
                        task.expire()
                    } else {
                        log.log(
                            .warning,
                            "\(label): still running after setTaskCompleted when its budget ran out; cancelled")
                    }
                    work.cancel()
                    if returned {
                        ended = true
                        break loop
                    }
                    startGrace()
                case .graceOver:
                    log.log(
                        .warning,
                        "\(label): did not stop within \(Self.format(grace)) of its expiry; abandoned (its work was cancelled)"
                    )
                    ended = true
                    break loop
                }
            }
        } onCancel: {
            work.cancel()
        }
        budget.cancel()
        graceTimer?.cancel()
        continuation.finish()
        let summary = task.close()
        if !ended {
            // The launch itself was cancelled.
            work.cancel()
            return (.failure, "the launch was cancelled before the task finished")
        }

        let budgetText = Self.format(task.budget)
        if let completion = summary.completion, !completion.afterExpiry {
            return completion.success
                ? (.success, completion.reason)
                : (.failure, completion.reason ?? "the handler reported failure")
        }
        if summary.completion != nil, !summary.hadExpirationHandler {
            // Apple's rule: with no expiration handler when the budget runs out, the run is
            // unsuccessful, whatever the handler reports afterwards.
            return (
                .expired,
                "its \(budgetText) budget ran out and it had no expiration handler: marked unsuccessful "
                    + "(its later setTaskCompleted was ignored)"
            )
        }
        if let completion = summary.completion {
            return completion.success
                ? (
                    .success,
                    completion.reason ?? "completed by its expiration handler when its \(budgetText) budget ran out"
                )
                : (.expired, "its \(budgetText) budget ran out" + (completion.reason.map { ": " + $0 } ?? ""))
        }
        if returnedWithoutCompleting {
            return (
                .expired,
                "the handler returned without calling setTaskCompleted; marked unsuccessful when its \(budgetText) "
                    + "budget ran out"
            )
        }
        if !summary.hadExpirationHandler {
            return (.expired, "its \(budgetText) budget ran out and it had no expiration handler: marked unsuccessful")
        }
        return (.expired, "its \(budgetText) budget ran out; the expiration handler did not call setTaskCompleted")
    }

    private var label: String { "\(task.identifier) [\(task.scope)]" }

    /// `30 s`, `10 min`, `1.5 h`.
    static func format(_ seconds: TimeInterval) -> String {
        func number(_ value: Double) -> String {
            value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
        }
        if seconds >= 3600, (seconds / 360).rounded() == seconds / 360 { return number(seconds / 3600) + " h" }
        if seconds >= 60, (seconds / 6).rounded() == seconds / 6 { return number(seconds / 60) + " min" }
        return number(seconds) + " s"
    }
}
