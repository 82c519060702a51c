// swift-format-ignore-file
import BackgroundTasks
import UIKit

enum BackgroundTaskID: String, CaseIterable {
    case refresh = "com.example.refresh"
    case cleanup = "com.example.cleanup"
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: BackgroundTaskID.refresh.rawValue, using: nil) { task in
            self.schedule(.refresh)
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: BackgroundTaskID.cleanup.rawValue, using: nil) { task in
            self.schedule(.cleanup)
            task.expirationHandler = { Cache.cancel() }
            Cache.trim { task.setTaskCompleted(success: $0) }
        }
        schedule(.refresh)
        schedule(.cleanup)
        return true
    }

    func schedule(_ id: BackgroundTaskID) {
        let request: BGTaskRequest
        switch id {
        case .refresh: request = BGAppRefreshTaskRequest(identifier: BackgroundTaskID.refresh.rawValue)
        case .cleanup: request = BGProcessingTaskRequest(identifier: BackgroundTaskID.cleanup.rawValue)
        }
        try? BGTaskScheduler.shared.submit(request)
    }
}
