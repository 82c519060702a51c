// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The app delegate's public scheduling function is also called when the app enters the background, which makes the
/// first request.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.thumbnails", using: nil) { task in
            self.handleThumbnails(task: task as! BGProcessingTask)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleThumbnails()
    }
}

extension AppDelegate {
    public func scheduleThumbnails() {
        let request = BGProcessingTaskRequest(identifier: "com.example.thumbnails")
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func handleThumbnails(task: BGProcessingTask) {
        scheduleThumbnails()
        task.expirationHandler = {
            ThumbnailRenderer.shared.cancel()
        }
        ThumbnailRenderer.shared.renderPending {
            task.setTaskCompleted(success: true)
        }
    }
}

final class ThumbnailRenderer {
    static let shared = ThumbnailRenderer()
    func renderPending(_ done: @escaping () -> Void) { done() }
    func cancel() {}
}
