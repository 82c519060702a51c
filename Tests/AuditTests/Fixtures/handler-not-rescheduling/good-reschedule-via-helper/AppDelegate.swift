// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Chain.retrain, using: nil) { task in
            Chain.shared.scheduleNext()
            task.expirationHandler = { Trainer.shared.stop() }
            Trainer.shared.run { task.setTaskCompleted(success: $0) }
        }
        Chain.shared.scheduleNext()
        return true
    }
}
