// swift-format-ignore-file
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
        PodcastDownloads.shared.resume(sessionIdentifier: identifier, whenDone: completionHandler)
    }
}

final class PodcastDownloads: NSObject, URLSessionDownloadDelegate {
    static let shared = PodcastDownloads()
    private var session: URLSession?
    private var finishEvents: (() -> Void)?

    func resume(sessionIdentifier: String, whenDone: @escaping () -> Void) {
        finishEvents = whenDone
        let configuration = URLSessionConfiguration.background(withIdentifier: sessionIdentifier)
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        DispatchQueue.main.async {
            self.finishEvents?()
            self.finishEvents = nil
        }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}
}
