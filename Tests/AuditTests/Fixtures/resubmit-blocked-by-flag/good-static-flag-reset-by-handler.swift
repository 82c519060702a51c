// swift-format-ignore-file
import BackgroundTasks
import UIKit

// The handler's run clears the flag (through the function it calls) before it schedules the next request.
enum FeedScheduler {
    static var requestPending = false

    static func handlerStarted() {
        requestPending = false
    }

    static func schedule() {
        guard !requestPending else { return }
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
            FeedScheduler.handlerStarted()
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
