// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler cancels the export before completing the task, and a cancelled export drops its callback
/// unsent; a refresh that ends in time is completed once, by the callback.
final class ExportScheduler {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.export", using: nil) { task in
            self.schedule()
            let export = Exporter.shared.exportPending { _ in
                task.setTaskCompleted(success: true)
            }
            task.expirationHandler = {
                export.cancel()
                task.setTaskCompleted(success: false)
            }
        }
        schedule()
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.export"))
    }
}

final class ExportJob {
    private var done: ((Bool) -> Void)?

    init(_ done: @escaping (Bool) -> Void) { self.done = done }

    func finish(_ ok: Bool) {
        done?(ok)
        done = nil
    }

    func cancel() { done = nil }
}

final class Exporter {
    static let shared = Exporter()
    func exportPending(_ done: @escaping (Bool) -> Void) -> ExportJob {
        let job = ExportJob(done)
        DispatchQueue.global().async { job.finish(true) }
        return job
    }
}
