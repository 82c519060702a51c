// swift-format-ignore-file
import UIKit

/// The uploader keeps the completion handler and calls it once the session has delivered its events. Its other
/// delegate callbacks call only their own completion handlers (an authentication challenge's), whose name is the
/// same.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        VideoUploader.shared.completionHandler = completionHandler
    }
}

final class VideoUploader: NSObject, URLSessionTaskDelegate {
    static let shared = VideoUploader()
    var completionHandler: (() -> Void)?
    private lazy var session = URLSession(
        configuration: .background(withIdentifier: "com.example.video.upload"), delegate: self, delegateQueue: nil)

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.performDefaultHandling, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        UploadQueue.finish(task.taskIdentifier, failed: error != nil)
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        DispatchQueue.main.async {
            self.completionHandler?()
            self.completionHandler = nil
        }
    }
}

enum UploadQueue {
    static func finish(_ id: Int, failed: Bool) {}
}
