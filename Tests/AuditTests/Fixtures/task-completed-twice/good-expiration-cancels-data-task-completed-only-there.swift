// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler cancels the data task and completes the refresh; the task's completion handler leaves a
/// cancelled request to it and completes only a request that ran to its end.
final class SyncScheduler {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            self.schedule()
            let request = URLRequest(url: URL(string: "https://example.com/sync")!)
            let upload = URLSession.shared.dataTask(with: request) { _, _, error in
                if (error as? URLError)?.code == .cancelled { return }
                task.setTaskCompleted(success: error == nil)
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
