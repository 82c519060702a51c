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

    func resume(sessionIdentifier: String, whenDone: @escaping () -> Void) {
        let configuration = URLSessionConfiguration.background(withIdentifier: sessionIdentifier)
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        // The session has not delivered its events yet.
        whenDone() // expect: background-events-completion-too-early
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}
}
