// swift-format-ignore-file
import BackgroundTasks
import UIKit

let taskPrefix = "com.example.feed"

/// The first refresh is submitted on entering the background, its identifier built by concatenation from the same
/// prefix the registration names: it may be the refresh, so the chain may start there.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feed.refresh", using: nil) { task in
            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.feed.refresh"))
            task.expirationHandler = { Feed.shared.cancel() }
            Feed.shared.reload { task.setTaskCompleted(success: $0) }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let kind = Feed.shared.isLarge ? "refresh" : "refresh"
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: taskPrefix + "." + kind))
    }
}
