// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate, URLSessionDownloadDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        // The session lists its tasks at once; their events have not been delivered yet.
        session.getAllTasks { tasks in
            print("\(tasks.count) transfers still running")
            completionHandler() // expect: background-events-completion-too-early
        }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        try? FileManager.default.removeItem(at: location)
    }
}
