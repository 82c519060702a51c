// swift-format-ignore-file
import UIKit

/// The task begun when the app resigns active guards the save that follows: it is ended when the app becomes active
/// again, when time runs out, and, if one is still held, before the next begin.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var saving: UIBackgroundTaskIdentifier = .invalid

    func applicationWillResignActive(_ application: UIApplication) {
        endSaving(application)
        saving = application.beginBackgroundTask(withName: "save") { [weak self] in
            self?.endSaving(application)
        }
        Drafts.shared.save()
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        endSaving(application)
    }

    private func endSaving(_ application: UIApplication) {
        guard saving != .invalid else { return }
        application.endBackgroundTask(saving)
        saving = .invalid
    }
}

final class Drafts {
    static let shared = Drafts()
    func save() {}
}
