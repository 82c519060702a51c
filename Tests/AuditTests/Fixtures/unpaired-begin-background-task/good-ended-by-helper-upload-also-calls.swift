// swift-format-ignore-file
import UIKit

/// The function that ends the task is called by the expiration handler and by the upload's completion: the task is
/// ended on the normal path too.
final class PhotoUploadViewController: UIViewController {
    private var uploadTask: UIBackgroundTaskIdentifier = .invalid

    override func viewDidLoad() {
        super.viewDidLoad()
        uploadTask = UIApplication.shared.beginBackgroundTask { [weak self] in
            self?.finishUploadTask()
        }
        PhotoUploader.shared.uploadPending { [weak self] in
            self?.finishUploadTask()
        }
    }

    private func finishUploadTask() {
        UIApplication.shared.endBackgroundTask(uploadTask)
        uploadTask = .invalid
    }
}

final class PhotoUploader {
    static let shared = PhotoUploader()
    func uploadPending(_ done: @escaping () -> Void) {
        DispatchQueue.global().async { done() }
    }
}
