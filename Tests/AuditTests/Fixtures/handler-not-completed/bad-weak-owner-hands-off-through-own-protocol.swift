// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The app's own protocol stands for the task (`BGTask` is made to conform to it, so tests can pass a double). The
/// handler hands the task through a weakly captured coordinator: when the coordinator is gone the call is skipped and
/// nothing completes the task.
protocol RefreshWork: AnyObject {
    var expirationHandler: (() -> Void)? { get set }
    func setTaskCompleted(success: Bool)
}

extension BGTask: RefreshWork {}

final class SyncCoordinator {
    func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { [weak self] task in
            self?.runRefresh(task) // expect: handler-not-completed
        }
        scheduleRefresh()
    }

    func runRefresh(_ work: RefreshWork) {
        scheduleRefresh()
        let sync = Task {
            await Inbox.shared.sync()
            work.setTaskCompleted(success: true)
        }
        work.expirationHandler = {
            sync.cancel()
        }
    }

    private func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }
}

actor Inbox {
    static let shared = Inbox()
    func sync() async {}
}
