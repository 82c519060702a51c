// swift-format-ignore-file
import BackgroundTasks
import os

/// The work and the expiration handler both complete the task behind one test-and-set under a lock: whichever comes
/// second finds the flag set and leaves, the task already completed.
final class ArchiveScheduler {
    private var work: Task<Void, Never>?

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.archive", using: nil) { task in
            self.schedule()
            let gate = OSAllocatedUnfairLock(initialState: false)
            self.work = Task {
                let ok = await Archive.compact()
                if gate.withLock({ let first = !$0; $0 = true; return first }) {
                    task.setTaskCompleted(success: ok)
                }
            }
            task.expirationHandler = {
                self.work?.cancel()
                let isFirst = gate.withLock { (done: inout Bool) -> Bool in
                    guard !done else { return false }
                    done = true
                    return true
                }
                if isFirst { task.setTaskCompleted(success: false) }
            }
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.archive"))
    }
}
