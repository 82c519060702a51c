// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler only sets a flag and logs; the flush never looks at the flag, so it runs on when time is
/// up, and the flag only picks the result the task is completed with once the flush is done.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.flush", using: nil) { task in
            Task { await Self.flush(task: task as! BGProcessingTask) }
        }
        Self.scheduleFlush()
        return true
    }

    static func scheduleFlush() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.flush"))
    }

    @MainActor
    static func flush(task: BGProcessingTask) async {
        scheduleFlush()
        var didExpire = false
        task.expirationHandler = { // expect: handler-missing-expiration-handler
            didExpire = true
            print("flush expired")
        }
        await OfflineQueue.shared.flush()
        task.setTaskCompleted(success: !didExpire)
    }
}

final class OfflineQueue: Sendable {
    static let shared = OfflineQueue()
    func flush() async {}
}
