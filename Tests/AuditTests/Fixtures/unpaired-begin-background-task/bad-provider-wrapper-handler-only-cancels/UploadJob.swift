// swift-format-ignore-file
import Foundation
import UIKit

/// The job's expiration handler only cancels the upload; the task is ended when the upload's callback runs, after
/// the handler has returned.
final class UploadJob {
    let provider: BackgroundTimeProviding
    var taskID: UIBackgroundTaskIdentifier = .invalid
    var upload: URLSessionTask?

    init(provider: BackgroundTimeProviding) {
        self.provider = provider
    }

    func start(_ request: URLRequest, body: Data) {
        taskID = provider.beginBackgroundTask(withName: "upload", expirationHandler: { // expect: unpaired-begin-background-task
            self.upload?.cancel()
        })
        upload = URLSession.shared.uploadTask(with: request, from: body) { _, _, _ in
            self.provider.endBackgroundTask(self.taskID)
            self.taskID = .invalid
        }
        upload?.resume()
    }
}
