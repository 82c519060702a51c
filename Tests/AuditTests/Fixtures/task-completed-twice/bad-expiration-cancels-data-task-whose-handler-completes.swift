// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler cancels the data task and completes the refresh; URLSession still calls a cancelled
/// task's completion handler (with `NSURLErrorCancelled`), which completes the refresh a second time.
final class SyncScheduler {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.schedule()
            let request = URLRequest(url: URL(string: "https://example.com/sync")!)
            let upload = URLSession.shared.dataTask(with: request) { _, _, error in
                task.setTaskCompleted(success: error == nil) // expect: task-completed-twice
            }
            task.expirationHandler = {
                upload.cancel()
                task.setTaskCompleted(success: false)
            }
            upload.resume()
        }
        schedule()
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }
}
