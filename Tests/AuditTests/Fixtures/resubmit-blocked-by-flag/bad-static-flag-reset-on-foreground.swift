// swift-format-ignore-file
import BackgroundTasks
import UIKit

// The flag is cleared when the app comes to the foreground, never on the way the handler takes: in a process
// that stays in the background the handler's call is skipped and the chain stops.
enum FeedScheduler {
    static var requestPending = false

    static func schedule() {
        guard !requestPending else { return } // expect: resubmit-blocked-by-flag
        requestPending = true
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.feed"))
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feed", using: nil) { task in
            FeedScheduler.schedule()
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        FeedScheduler.schedule()
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        FeedScheduler.requestPending = false
    }
}
