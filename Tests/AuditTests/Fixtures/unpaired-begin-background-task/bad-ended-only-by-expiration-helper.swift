// swift-format-ignore-file
import UIKit

/// The upload keeps its background time in a property, and the one function that ends it is the one the expiration
/// handler calls: when the upload finishes in time, nothing ends the task.
final class PhotoUploadViewController: UIViewController {
    private var uploadTask: UIBackgroundTaskIdentifier = .invalid

    override func viewDidLoad() {
        super.viewDidLoad()
        uploadTask = UIApplication.shared.beginBackgroundTask { [weak self] in // expect: unpaired-begin-background-task
            self?.finishUploadTask()
        }
        PhotoUploader.shared.uploadPending()
    }

    private func finishUploadTask() {
        UIApplication.shared.endBackgroundTask(uploadTask)
        uploadTask = .invalid
    }
}

final class PhotoUploader {
    static let shared = PhotoUploader()
    func uploadPending() {}
}
