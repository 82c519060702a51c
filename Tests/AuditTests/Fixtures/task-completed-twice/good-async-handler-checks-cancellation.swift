// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Async launch handlers that wait after setting their expiration handler, done right: the first completes the task
/// after the wait only when it was not cancelled, which the expiration handler does before completing it; the second
/// completes the task before it waits for anything (the wait afterwards only saves a note); the third's expiration
/// handler only cancels, leaving the one completion to the body.
final class JournalSync: NSObject, UIApplicationDelegate {
    private var pullTask: Task<Void, Never>?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.journal", using: nil) { task in
            self.pullTask = Task { await self.sync(task as! BGAppRefreshTask) }
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.journal.quick", using: nil) { task in
            Task { await self.quickSync(task as! BGAppRefreshTask) }
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.journal.prune", using: nil) { task in
            let work = Task { await self.prune(task as! BGProcessingTask) }
            task.expirationHandler = { work.cancel() }
        }
        schedule()
        return true
    }

    private func sync(_ task: BGAppRefreshTask) async {
        schedule()
        task.expirationHandler = {
            self.pullTask?.cancel()
            task.setTaskCompleted(success: false)
        }
        let changed = (try? await Journal.shared.pull()) ?? 0
        guard !Task.isCancelled else { return }
        task.setTaskCompleted(success: changed >= 0)
    }

    private func quickSync(_ task: BGAppRefreshTask) async {
        schedule()
        task.expirationHandler = {
            task.setTaskCompleted(success: false)
        }
        task.setTaskCompleted(success: true)
        await Journal.shared.note()
    }

    private func prune(_ task: BGProcessingTask) async {
        schedule()
        let pruned = (try? await Journal.shared.pull()) ?? 0
        task.setTaskCompleted(success: pruned >= 0)
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.journal"))
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.journal.quick"))
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.journal.prune"))
    }
}

actor Journal {
    static let shared = Journal()
    func pull() async throws -> Int { 0 }
    func note() async {}
}
