// swift-format-ignore-file
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        TaskRegistry.install(TaskRegistry.index)
        TaskRegistry.install(TaskRegistry.cleanup)
        Worker.schedule(TaskRegistry.index)
        Worker.schedule(TaskRegistry.cleanup)
        return true
    }
}
