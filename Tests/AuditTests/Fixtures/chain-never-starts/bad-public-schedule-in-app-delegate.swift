// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The app delegate's scheduling function is `public`, but no other module calls an app's delegate: the only submit
/// is the one its own handler makes, so the first request is never made.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.thumbnails", using: nil) { task in // expect: chain-never-starts
            self.handleThumbnails(task: task as! BGProcessingTask)
        }
        return true
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
