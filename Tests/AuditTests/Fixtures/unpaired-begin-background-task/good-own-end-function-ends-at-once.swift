// swift-format-ignore-file
import UIKit

/// The uploader ends its background tasks through its own `endBackgroundTask(_:)`, named like UIKit's, which ends the
/// task before it returns (on its queue, synchronously): the expiration handler has ended the task when it returns.
final class UploadTasks {
    private let queue = DispatchQueue(label: "com.example.upload-tasks")
    private var tasks: [String: UIBackgroundTaskIdentifier] = [:]

    func beginBackgroundTask(for upload: String) {
        queue.sync {
            tasks[upload] = UIApplication.shared.beginBackgroundTask(withName: upload) { [weak self] in
                self?.endBackgroundTask(upload)
            }
        }
    }

    func endBackgroundTask(_ upload: String) {
        queue.sync {
            guard let task = tasks.removeValue(forKey: upload) else { return }
            UIApplication.shared.endBackgroundTask(task)
        }
    }
}
