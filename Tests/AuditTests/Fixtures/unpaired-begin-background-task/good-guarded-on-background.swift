// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    private var waitTask: UIBackgroundTaskIdentifier = .invalid
    private var isWaiting = false

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard !isWaiting else { return }
        isWaiting = true
        waitTask = UIApplication.shared.beginBackgroundTask { [weak self] in self?.finishWaiting() }
        Sync.shared.whenIdle { [weak self] in self?.finishWaiting() }
    }

    private func finishWaiting() {
        isWaiting = false
        UIApplication.shared.endBackgroundTask(waitTask)
        waitTask = .invalid
    }
}
