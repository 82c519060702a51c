// swift-format-ignore-file
import Foundation

final class EpisodeDownloader: NSObject, URLSessionDownloadDelegate {
    lazy var backgroundSession: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.episodes")
        configuration.isDiscretionary = true
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func download(_ url: URL) {
        backgroundSession.downloadTask(with: url) { location, _, error in // expect: background-session-completion-handler
            guard let location, error == nil else { return }
            try? FileManager.default.moveItem(at: location, to: Library.destination(for: url))
        }.resume()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}
}
