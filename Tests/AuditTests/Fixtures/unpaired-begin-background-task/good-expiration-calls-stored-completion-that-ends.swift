// swift-format-ignore-file
import UIKit

/// The expiration handler calls the worker's stored timeout closure, which the worker set to one that ends the
/// background task: the task is ended when time runs out, as when the upload answers.
final class UploadWorker {
    private var onTimeout: (() -> Void)?
    private var taskID = UIBackgroundTaskIdentifier.invalid

    init() {
        onTimeout = { [unowned self] in
            print("upload timed out")
            self.endTask()
        }
    }

    func upload(_ body: Data) {
        taskID = UIApplication.shared.beginBackgroundTask(withName: "upload") {
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
