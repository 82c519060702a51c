// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// When the weakly captured owner is gone the handler completes the task itself before returning.
final class FeedRefresher {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feed", using: nil) { [weak self] task in
            guard let self else {
                task.setTaskCompleted(success: false)
                return
            }
            self.refresh(task as! BGAppRefreshTask)
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
