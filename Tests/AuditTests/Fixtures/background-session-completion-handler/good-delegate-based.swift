// swift-format-ignore-file
import Foundation

final class EpisodeDownloader: NSObject, URLSessionDownloadDelegate {
    static let shared = EpisodeDownloader()

    lazy var backgroundSession: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.episodes")
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func download(_ url: URL) {
        backgroundSession.downloadTask(with: url).resume()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        try? FileManager.default.moveItem(at: location, to: Library.destination(for: downloadTask))
    }
}
