// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handlers given to the wrappers are the launch handlers: when there is no account, or nothing to upload, they
/// return without completing the task.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var accountID: String?

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        TaskRegistry.shared.register("com.example.wrapper.refresh") { task in
            TaskRegistry.shared.schedule("com.example.wrapper.refresh")
            guard let account = self.accountID else { return } // expect: handler-not-completed
            task.expirationHandler = {
                Inbox.cancelSync()
                task.setTaskCompleted(success: false)
            }
            Inbox.sync(account) { ok in task.setTaskCompleted(success: ok) }
        }
        TaskRegistry.shared.registerLogged("com.example.wrapper.upload") { task in
            TaskRegistry.shared.schedule("com.example.wrapper.upload")
            task.expirationHandler = {
                Outbox.cancelUpload()
                task.setTaskCompleted(success: false)
            }
            if Outbox.isEmpty { return } // expect: handler-not-completed
            Outbox.upload { ok in task.setTaskCompleted(success: ok) }
        }
        TaskRegistry.shared.schedule("com.example.wrapper.refresh")
        TaskRegistry.shared.schedule("com.example.wrapper.upload")
        return true
    }
}

enum Outbox {
    static var isEmpty = true
    static func upload(done: @escaping (Bool) -> Void) { done(true) }
    static func cancelUpload() {}
}

enum Inbox {
    static func sync(_ account: String, done: @escaping (Bool) -> Void) { done(true) }
    static func cancelSync() {}
}
