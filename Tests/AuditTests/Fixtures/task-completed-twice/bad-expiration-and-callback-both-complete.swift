// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler completes the task and stops nothing; the export's callback completes it again whenever it
/// arrives, so a refresh that runs out of time is completed twice.
final class ExportScheduler {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.export", using: nil) { task in
            self.schedule()
            task.expirationHandler = {
                task.setTaskCompleted(success: false)
            }
            Exporter.shared.exportPending { _ in
                task.setTaskCompleted(success: true) // expect: task-completed-twice
            }
        }
        schedule()
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.export"))
    }
}

final class Exporter {
    static let shared = Exporter()
    func exportPending(_ done: @escaping (Bool) -> Void) {
        DispatchQueue.global().async { done(true) }
    }
}
