// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler cancels the work item and completes the refresh; the item was handed to a queue at once
/// and has begun by then, and cancelling a work item that has begun stops nothing: its callback still comes and
/// completes the refresh a second time.
final class FeedRefresher {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feed", using: nil) { task in
            self.schedule()
            let work = DispatchWorkItem {
                FeedStore.shared.reload { ok in
                    task.setTaskCompleted(success: ok) // expect: task-completed-twice
                }
            }
            task.expirationHandler = {
                work.cancel()
                task.setTaskCompleted(success: false)
            }
            DispatchQueue.global(qos: .utility).async(execute: work)
        }
        schedule()
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.feed"))
    }
}

final class FeedStore {
    static let shared = FeedStore()
    func reload(_ done: @escaping (Bool) -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 40) { done(true) }
    }
}
