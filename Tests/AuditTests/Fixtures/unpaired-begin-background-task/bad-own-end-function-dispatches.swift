// swift-format-ignore-file
import UIKit

/// The uploader keeps its background tasks by name and ends them through its own `endBackgroundTask(_:)`, named like
/// UIKit's, which ends the task only in a block it dispatches to its queue: the expiration handler returns before the
/// task is ended, and iOS ends the app.
final class UploadTasks {
    private let queue = DispatchQueue(label: "com.example.upload-tasks")
    private var tasks: [String: UIBackgroundTaskIdentifier] = [:]

    func beginBackgroundTask(for upload: String) {
        queue.async { [self] in
            tasks[upload] = UIApplication.shared.beginBackgroundTask(withName: upload) { [weak self] in // expect: unpaired-begin-background-task
                self?.endBackgroundTask(upload)
            }
        }
    }

    func endBackgroundTask(_ upload: String) {
        queue.async { [self] in
            guard let task = tasks.removeValue(forKey: upload) else { return }
            UIApplication.shared.endBackgroundTask(task)
        }
    }
}
