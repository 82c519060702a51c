// swift-format-ignore-file
import UIKit

// The only calls of `syncInBackground()` are commented out (and one is named in a block comment): nothing runs the
// begin, so nothing leaves it unended.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let store = NoteStore()

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        store.load()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        // store.syncInBackground()
        /* Disabled until the server is ready:
           store.syncInBackground() /* nested */ */
        store.save()
    }
}

final class NoteStore {
    private var syncTask = UIBackgroundTaskIdentifier.invalid

    func load() {}
    func save() {}

    func syncInBackground() {
        syncTask = UIApplication.shared.beginBackgroundTask {
            print("sync expired")
        }
        Server.push(notes: []) { _ in }
    }
}
