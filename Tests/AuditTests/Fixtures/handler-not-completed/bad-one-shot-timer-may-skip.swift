// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// A timer that fires once checks whether the report is done; when it is not, nothing completes the task (the
/// expiration handler only cancels the work).
final class ReportScheduler {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.report", using: nil) { task in
            self.schedule()
            Report.start()
            task.expirationHandler = { Report.cancel() }
            Timer.scheduledTimer(withTimeInterval: 20, repeats: false) { _ in
                guard Report.isFinished else { return } // expect: handler-not-completed
                task.setTaskCompleted(success: true)
            }
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.report"))
    }
}
