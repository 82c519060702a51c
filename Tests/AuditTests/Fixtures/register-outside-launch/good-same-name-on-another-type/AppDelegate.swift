// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The delegate registers through its `tasks` property, typed `TaskManager`: the call is that type's
/// `registerBackgroundTasks()`, made at launch. `Optimizer` has a method of the same name, registering after launch,
/// that nothing calls, so its registration never happens.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let tasks: TaskManager = TaskManager()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        tasks.registerBackgroundTasks()
        tasks.scheduleSync()
        Optimizer.shared.trimCaches()
        return true
    }
}
