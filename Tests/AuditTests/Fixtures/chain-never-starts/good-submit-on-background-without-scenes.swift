// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// A UIKit app without scenes (no `UIApplicationSceneManifest`, no SwiftUI entry): UIKit calls the app delegate's
/// `applicationDidEnterBackground(_:)`, which books the first refresh.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.harbor.refresh", using: nil) { task in
            self.bookRefresh()
            task.expirationHandler = { Harbor.cancel() }
            Harbor.fetch { task.setTaskCompleted(success: $0) }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        bookRefresh()
    }

    func bookRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.harbor.refresh"))
    }
}

enum Harbor {
    static func fetch(_ done: @escaping (Bool) -> Void) { done(true) }
    static func cancel() {}
}
