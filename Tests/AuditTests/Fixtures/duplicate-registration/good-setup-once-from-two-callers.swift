// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Two places ask for the background task to be set up — the launch and the first sign-in — but the set-up registers
/// only on its first call (a flag it sets), so the identifier is registered once.
final class InboxSync: NSObject {
    static let shared = InboxSync()
    private var registered = false

    func prepareAtLaunch() {
        setUpBackgroundTask()
        schedule()
    }

    func userSignedIn() {
        setUpBackgroundTask()
        schedule()
    }

    private func setUpBackgroundTask() {
        guard !registered else { return }
        registered = true
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.inbox.sync", using: nil) { task in
            self.schedule()
            task.expirationHandler = { Inbox.cancelFetch() }
            Inbox.fetch { task.setTaskCompleted(success: $0) }
        }
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.inbox.sync"))
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        InboxSync.shared.prepareAtLaunch()
        return true
    }

    func signInFinished() {
        InboxSync.shared.userSignedIn()
    }
}

enum Inbox {
    static func fetch(_ done: @escaping (Bool) -> Void) { done(true) }
    static func cancelFetch() {}
}
