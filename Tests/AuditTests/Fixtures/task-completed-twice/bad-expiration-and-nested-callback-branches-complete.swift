// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler completes the task and stops nothing. The token check's reply still arrives, and both of
/// its branches complete the task again: the one that waits for a second callback, which tests only what that callback
/// was given (`success`), and the one that completes at once.
final class SessionRefresher {
    func registerAtLaunch() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.session", using: nil) { task in
            self.refresh(task as! BGAppRefreshTask)
        }
        schedule()
    }

    private func refresh(_ task: BGAppRefreshTask) {
        task.expirationHandler = {
            task.setTaskCompleted(success: false)
        }
        schedule()
        Auth.shared.verifyToken { isValid in
            if !isValid {
                Auth.shared.renewToken { success in
                    if success {
                        Uploads.shared.flush()
                    }
                    task.setTaskCompleted(success: success) // expect: task-completed-twice
                }
            } else {
                Uploads.shared.flush()
                task.setTaskCompleted(success: true) // expect: task-completed-twice
            }
        }
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.session"))
    }
}
