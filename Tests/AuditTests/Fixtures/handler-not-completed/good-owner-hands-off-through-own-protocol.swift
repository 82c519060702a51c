// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The app's own protocol stands for the task. The coordinator lives as long as the process and is captured
/// strongly, so the task is always handed on, and the function it goes to completes it.
protocol RefreshWork: AnyObject {
    var expirationHandler: (() -> Void)? { get set }
    func setTaskCompleted(success: Bool)
}

extension BGTask: RefreshWork {}

final class SyncCoordinator {
    static let shared = SyncCoordinator()

    func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            SyncCoordinator.shared.runRefresh(task)
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
