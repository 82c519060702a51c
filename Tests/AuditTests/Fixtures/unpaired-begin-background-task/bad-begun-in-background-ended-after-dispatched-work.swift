// swift-format-ignore-file
import UIKit

/// The block dispatched on the move to the background compacts the journal before it ends the task: while it runs,
/// the app may come back and leave again, and the new task replaces the identifier of the one still held.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var compactTask: UIBackgroundTaskIdentifier = .invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        compactTask = application.beginBackgroundTask(withName: "compact") { // expect: unpaired-begin-background-task
            application.endBackgroundTask(self.compactTask)
            self.compactTask = .invalid
        }
        DispatchQueue.global(qos: .utility).async {
            Journal.shared.compact()
            application.endBackgroundTask(self.compactTask)
            self.compactTask = .invalid
        }
    }
}

final class Journal {
    static let shared = Journal()
    func compact() {}
}
