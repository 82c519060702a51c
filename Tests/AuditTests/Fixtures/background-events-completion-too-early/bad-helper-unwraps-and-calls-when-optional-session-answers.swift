// swift-format-ignore-file
import UIKit

/// The handler goes to a helper that unwraps it under its own name and calls it as soon as the (optional) session
/// lists its tasks: before the relaunch's events are delivered.
final class TransferStore: NSObject, URLSessionDownloadDelegate {
    static let shared = TransferStore()
    var backgroundSession: URLSession?
    var tasks: [URLSessionTask] = []

    func start() {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.transfers")
        backgroundSession = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func refreshTasks(_ completionHandler: (() -> Void)? = nil) {
        backgroundSession?.getAllTasks { tasks in
            DispatchQueue.main.async {
                self.tasks = tasks
                if let completionHandler = completionHandler {
                    completionHandler() // expect: background-events-completion-too-early
                }
            }
        }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        try? FileManager.default.removeItem(at: location)
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        TransferStore.shared.refreshTasks(completionHandler)
    }
}
