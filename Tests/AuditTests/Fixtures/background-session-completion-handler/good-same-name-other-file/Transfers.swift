// swift-format-ignore-file
import Foundation

final class Transfers: NSObject, URLSessionDownloadDelegate {
    var session: URLSession!

    func start() {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.transfers")
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func fetch(_ url: URL) {
        session.downloadTask(with: url).resume()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}
}
