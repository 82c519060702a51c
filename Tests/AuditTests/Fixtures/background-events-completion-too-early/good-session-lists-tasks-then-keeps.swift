// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate, URLSessionDownloadDelegate {
    var finishEvents: (() -> Void)?
    lazy var session = URLSession(
        configuration: .background(withIdentifier: "com.example.transfers"), delegate: self, delegateQueue: nil)

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        // Kept until the session has delivered its events; the listing only logs.
        finishEvents = completionHandler
        session.getAllTasks { tasks in
            print("\(tasks.count) transfers still running")
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        DispatchQueue.main.async {
            self.finishEvents?()
            self.finishEvents = nil
        }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        try? FileManager.default.removeItem(at: location)
    }
}
