// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    let refresher = Refresher()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Refresher.identifier, using: nil, launchHandler: refresher.handle) // expect: chain-never-starts
        return true
    }
}
