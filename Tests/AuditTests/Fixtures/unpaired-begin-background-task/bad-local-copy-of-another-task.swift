// swift-format-ignore-file
import UIKit

/// Two tasks kept side by side; the normal path ends a copy of the download task only, so the upload task is
/// ended by nothing but its expiration handler.
final class TransferCoordinator {
    private var uploadTask: UIBackgroundTaskIdentifier?
    private var downloadTask: UIBackgroundTaskIdentifier?

    func upload(_ file: URL) {
        uploadTask = UIApplication.shared.beginBackgroundTask(withName: "upload") { [weak self] in // expect: unpaired-begin-background-task
            guard let task = self?.uploadTask else { return }
            UIApplication.shared.endBackgroundTask(task)
            self?.uploadTask = nil
        }
        Uploader.send(file) { [weak self] _ in self?.finish() }
    }

    private func finish() {
        guard let task = downloadTask else { return }
        downloadTask = nil
        UIApplication.shared.endBackgroundTask(task)
    }
}
