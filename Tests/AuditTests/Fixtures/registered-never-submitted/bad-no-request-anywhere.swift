// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// No code ever asks for the restore task, so its handler never runs: the fault is the missing request, reported at
/// the registration; that the handler does not ask for its next run is no second fault, as it has no chain to stop.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.wallet.restore", using: nil) { task in // expect: registered-never-submitted
            task.expirationHandler = { WalletRestore.cancel() }
            WalletRestore.run { task.setTaskCompleted(success: $0) }
        }
        return true
    }
}
