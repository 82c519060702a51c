// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate, URLSessionDelegate {
    private var refreshTask: BGAppRefreshTask?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.downloads", using: nil) { task in // expect: handler-missing-expiration-handler
            // Completed when the background session reports that its events are done.
            self.refreshTask = task as? BGAppRefreshTask
            Downloads.shared.resume()
        }
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.downloads"))
        return true
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        refreshTask?.setTaskCompleted(success: true)
        refreshTask = nil
    }
}
