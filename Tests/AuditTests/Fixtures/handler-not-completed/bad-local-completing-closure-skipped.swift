// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler completes the task through a local closure, declared first and called on each path but one: the
/// closure completes the task where it is called, not where it is written.
enum FeedRefresher {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds", using: nil) { task in
            schedule()
            let finish: (Bool) -> Void = { ok in
                task.setTaskCompleted(success: ok)
            }
            task.expirationHandler = { Feeds.cancel() }
            guard Feeds.hasSources else {
                return // expect: handler-not-completed
            }
            Feeds.refresh { ok in
                finish(ok)
            }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.feeds"))
    }
}
