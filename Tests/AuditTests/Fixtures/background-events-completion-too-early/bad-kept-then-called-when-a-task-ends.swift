// swift-format-ignore-file
import UIKit

/// The app delegate hands the completion handler to the uploader, which keeps it — and then calls it as soon as one
/// upload ends, from the task's completion callback, while the session may still have events of other tasks to
/// deliver.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        PhotoUploader.shared.keepEventsHandler(completionHandler)
    }
}

final class PhotoUploader: NSObject, URLSessionTaskDelegate {
    static let shared = PhotoUploader()
    private var eventsHandler: (() -> Void)?
    private lazy var session = URLSession(
        configuration: .background(withIdentifier: "com.example.photos.upload"), delegate: self, delegateQueue: nil)

    func keepEventsHandler(_ handler: @escaping () -> Void) {
        eventsHandler = handler
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        defer {
            DispatchQueue.main.async {
                self.eventsHandler?() // expect: background-events-completion-too-early
                self.eventsHandler = nil
            }
        }
        guard error == nil else { return }
        UploadLog.markDone(task.taskIdentifier)
    }
}

enum UploadLog {
    static func markDone(_ id: Int) {}
}
