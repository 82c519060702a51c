// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler completes the task through a local closure, declared first and called on every path, the expiration
/// handler's among them.
enum NewsRefresher {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.news", using: nil) { task in
            schedule()
            let finish: (Bool) -> Void = { ok in
                task.setTaskCompleted(success: ok)
            }
            task.expirationHandler = {
                Feeds.cancel()
                finish(false)
            }
            guard Feeds.hasSources else {
                finish(true)
                return
            }
            Feeds.refresh { ok in
                finish(ok)
            }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.news"))
    }
}
