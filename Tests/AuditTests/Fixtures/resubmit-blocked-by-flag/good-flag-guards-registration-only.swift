// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// A process-wide flag keeps the handler from being registered twice; the registered handler submits its successor
/// through `schedule()`, which the flag does not guard, so every run submits the next request.
enum InboxRefresh {
    private static var didRegister = false

    static func registerIfNeeded() {
        guard !didRegister else { return }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.inbox", using: nil) { task in
            handle(task)
        }
        didRegister = true
    }

    static func schedule() {
        registerIfNeeded()
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.inbox"))
    }

    private static func handle(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Inbox.cancel() }
        Inbox.refresh { task.setTaskCompleted(success: $0) }
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        InboxRefresh.registerIfNeeded()
        InboxRefresh.schedule()
        return true
    }
}
