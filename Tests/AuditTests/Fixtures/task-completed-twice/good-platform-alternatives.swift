// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler is built one way or the other: the `#else` branch's completion is never built beside the first, and
/// the `#available` guard's `else` is never taken on a system that runs background tasks.
final class MetricsFlushScheduler {
    static let identifier = "com.example.metrics.flush"

    /// Called from `application(_:didFinishLaunchingWithOptions:)`.
    func registerAndSchedule() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
            self.handle(task: task)
        }
        schedule()
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: Self.identifier))
    }

    private func handle(task: BGTask) {
        schedule()
#if canImport(BackgroundTasks)
        guard #available(iOS 13.0, *) else {
            task.setTaskCompleted(success: false)
            return
        }
        task.expirationHandler = {
            MetricsUploader.shared.cancel()
        }
        MetricsUploader.shared.flush { ok in
            task.setTaskCompleted(success: ok)
        }
#else
        task.setTaskCompleted(success: false)
#endif
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    let scheduler = MetricsFlushScheduler()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        scheduler.registerAndSchedule()
        return true
    }
}
