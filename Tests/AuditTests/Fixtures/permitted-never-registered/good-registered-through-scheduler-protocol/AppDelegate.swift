// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    lazy var coordinators: [RefreshCoordinator] = [
        InboxRefreshCoordinator(scheduler: BGTaskScheduler.shared),
        ContactsRefreshCoordinator(scheduler: BGTaskScheduler.shared),
    ]

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        coordinators.forEach { $0.initialize() }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        coordinators.forEach { $0.submitRequest() }
    }
}
