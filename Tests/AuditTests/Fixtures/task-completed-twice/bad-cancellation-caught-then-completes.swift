// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The `Task` checks for cancellation, but inside a `do` whose `catch` only records the failure: a cancelled run
/// goes on to complete the task the expiration handler has already completed.
final class JournalSync: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.journal", using: nil) { task in
            self.sync(task as! BGProcessingTask)
        }
        schedule()
        return true
    }

    func sync(_ task: BGProcessingTask) {
        schedule()
        let work = Task {
            var ok = true
            do {
                try await Journal.shared.push()
                try Task.checkCancellation()
            } catch {
                ok = false
            }
            task.setTaskCompleted(success: ok) // expect: task-completed-twice
        }
        task.expirationHandler = {
            work.cancel()
            task.setTaskCompleted(success: false)
        }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.journal"))
    }
}

actor Journal {
    static let shared = Journal()
    func push() async throws {}
}
