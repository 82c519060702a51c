// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The launch handler's own async body sets an expiration handler that completes the task, then waits for the sync;
/// the handler stops nothing, so when time runs out during the wait the body resumes afterwards and completes the
/// task a second time (in the `do` and in its `catch` alike).
final class JournalSync: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.journal", using: nil) { task in
            Task { await self.sync(task as! BGAppRefreshTask) }
        }
        schedule()
        return true
    }

    private func sync(_ task: BGAppRefreshTask) async {
        schedule()
        task.expirationHandler = {
            print("journal sync ran out of time")
            task.setTaskCompleted(success: false)
        }
        do {
            let changed = try await Journal.shared.pull()
            task.setTaskCompleted(success: changed >= 0) // expect: task-completed-twice
        } catch {
            task.setTaskCompleted(success: false) // expect: task-completed-twice
        }
    }

    private func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.journal")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
        try? BGTaskScheduler.shared.submit(request)
    }
}

actor Journal {
    static let shared = Journal()
    func pull() async throws -> Int { 0 }
}
