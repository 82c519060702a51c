// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The launch handler is a closure bound to a local before it is registered (`launchHandler: refresh`); its early
/// `return` when no account is signed in leaves the task uncompleted, as it would written inline.
final class InboxRefresh {
    var account: String?

    func registerAtLaunch() {
        let refresh: (BGTask) -> Void = { [unowned self] task in
            self.schedule()
            task.expirationHandler = { Mailbox.shared.stop() }
            guard let account = self.account else { return } // expect: handler-not-completed
            Mailbox.shared.fetch(for: account) { ok in
                task.setTaskCompleted(success: ok)
            }
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.inbox", using: nil, launchHandler: refresh)
        schedule()
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.inbox"))
    }
}

final class Mailbox {
    static let shared = Mailbox()
    func fetch(for account: String, _ done: @escaping (Bool) -> Void) { done(true) }
    func stop() {}
}
