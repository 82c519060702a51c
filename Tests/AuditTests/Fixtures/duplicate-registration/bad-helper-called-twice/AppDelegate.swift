// swift-format-ignore-file
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        TaskRegistry.install("com.example.index")
        TaskRegistry.install("com.example.cleanup")
        TaskRegistry.install("com.example.index") // expect: duplicate-registration
        Worker.schedule("com.example.index")
        Worker.schedule("com.example.cleanup")
        return true
    }
}
