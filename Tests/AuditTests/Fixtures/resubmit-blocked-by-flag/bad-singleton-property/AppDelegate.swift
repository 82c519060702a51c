// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: RefreshScheduler.identifier, using: nil) { task in
            RefreshScheduler.shared.scheduleNext()
            task.expirationHandler = { Inbox.shared.cancelFetch() }
            Inbox.shared.fetch { task.setTaskCompleted(success: $0) }
        }
        RefreshScheduler.shared.scheduleNext()
        return true
    }
}
