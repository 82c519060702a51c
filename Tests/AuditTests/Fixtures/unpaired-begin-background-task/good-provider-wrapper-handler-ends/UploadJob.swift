// swift-format-ignore-file
import Foundation
import UIKit

/// The expiration handler cancels the upload and ends the task before it returns.
final class UploadJob {
    let provider: BackgroundTimeProviding
    var taskID: UIBackgroundTaskIdentifier = .invalid
    var upload: URLSessionTask?

    init(provider: BackgroundTimeProviding) {
        self.provider = provider
    }

    func start(_ request: URLRequest, body: Data) {
        taskID = provider.beginBackgroundTask(withName: "upload", expirationHandler: {
            self.upload?.cancel()
            self.finish()
        })
        upload = URLSession.shared.uploadTask(with: request, from: body) { _, _, _ in
            self.finish()
        }
        upload?.resume()
    }

    private func finish() {
        guard taskID != .invalid else { return }
        provider.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
