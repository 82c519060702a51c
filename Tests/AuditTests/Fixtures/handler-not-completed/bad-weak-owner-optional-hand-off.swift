// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler hands the task on through a weakly captured owner: when the owner is gone, the call is skipped and
/// nothing completes the task.
final class FeedRefresher {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feed", using: nil) { [weak self] task in
            self?.refresh(task as! BGAppRefreshTask) // expect: handler-not-completed
        }
        schedule()
    }

    private func refresh(_ task: BGAppRefreshTask) {
        schedule()
        let work = Task {
            await Feed.shared.reload()
            task.setTaskCompleted(success: true)
        }
        task.expirationHandler = { work.cancel() }
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.feed"))
    }
}

actor Feed {
    static let shared = Feed()
    func reload() async {}
}
