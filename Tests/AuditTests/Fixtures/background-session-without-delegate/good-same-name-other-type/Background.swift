// swift-format-ignore-file
import Foundation

final class BackgroundDownloads: NSObject, URLSessionDownloadDelegate {
    let config = URLSessionConfiguration.background(withIdentifier: "com.example.downloads")
    lazy var session = URLSession(configuration: config, delegate: self, delegateQueue: nil)

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}
}
