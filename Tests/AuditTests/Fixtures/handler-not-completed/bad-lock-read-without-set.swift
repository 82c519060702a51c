// swift-format-ignore-file
import BackgroundTasks
import os

/// The completion waits on a value read under a lock that nothing sets in the test: when it reads `false`, nothing
/// completes the task.
final class IndexScheduler {
    private let state = OSAllocatedUnfairLock(initialState: false)

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.index", using: nil) { task in
            self.schedule()
            task.expirationHandler = { Index.cancel() }
            Task {
                await Index.rebuild()
                if self.state.withLock({ $0 }) { // expect: handler-not-completed
                    task.setTaskCompleted(success: true)
                }
            }
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.index"))
    }
}
