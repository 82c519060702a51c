// swift-format-ignore-file
import Foundation

final class Downloads: NSObject, URLSessionDownloadDelegate {
    var session: URLSession?

    func start() {
        let config = URLSessionConfiguration.background(withIdentifier: "com.example.downloads")
        session = URLSession(configuration: config, delegate: self, delegateQueue: nil)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}
}
