// swift-format-ignore-file
import UIKit

/// The same session made with an explicit `init` and a delegate that receives its events.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let transfers = TransferDelegate()

    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        transfers.completion = completionHandler
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        let session = URLSession.init(configuration: configuration, delegate: transfers, delegateQueue: nil)
        transfers.session = session
    }
}

final class TransferDelegate: NSObject, URLSessionDownloadDelegate {
    var completion: (() -> Void)?
    var session: URLSession?

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        DispatchQueue.main.async {
            self.completion?()
            self.completion = nil
        }
    }
}
