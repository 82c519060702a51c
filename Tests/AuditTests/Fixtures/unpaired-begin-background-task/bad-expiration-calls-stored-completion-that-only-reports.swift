// swift-format-ignore-file
import UIKit

/// The expiration handler calls the worker's stored timeout closure, but the closure the worker sets there only
/// logs: when time runs out nothing ends the background task.
final class UploadWorker {
    private var onTimeout: (() -> Void)?
    private var taskID = UIBackgroundTaskIdentifier.invalid

    init() {
        onTimeout = {
            print("upload timed out")
        }
    }

    func upload(_ body: Data) {
        taskID = UIApplication.shared.beginBackgroundTask(withName: "upload") { // expect: unpaired-begin-background-task
            self.onTimeout?()
        }
        var request = URLRequest(url: URL(string: "https://example.com/upload")!)
        request.httpMethod = "POST"
        URLSession.shared.uploadTask(with: request, from: body) { _, _, _ in
            self.endTask()
        }.resume()
    }

    private func endTask() {
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
