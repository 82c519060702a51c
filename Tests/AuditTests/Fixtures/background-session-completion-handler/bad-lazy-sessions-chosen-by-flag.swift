// swift-format-ignore-file
import Foundation

// Two sessions made in property initializers, each from its own local `config`; the batch sender picks one by a
// flag, and the background one is given a completion handler on the paths that pick it.
final class BatchSender: NSObject, URLSessionDataDelegate {
    private lazy var backgroundSession: URLSession = {
        let config = URLSessionConfiguration.background(withIdentifier: "com.example.batches")
        config.isDiscretionary = false
        return URLSession(configuration: config, delegate: self, delegateQueue: nil)
    }()

    private lazy var foregroundSession: URLSession = {
        let config = URLSessionConfiguration.default
        config.timeoutIntervalForRequest = 30
        return URLSession(configuration: config)
    }()

    func retryLater(_ request: URLRequest) {
        backgroundSession.dataTask(with: request) { _, _, _ in }.resume() // expect: background-session-completion-handler
    }

    func send(_ request: URLRequest, inBackground: Bool, done: @escaping (Bool) -> Void) {
        let session = inBackground ? backgroundSession : foregroundSession
        let task = session.dataTask(with: request) { _, response, _ in // expect: background-session-completion-handler
            done((response as? HTTPURLResponse)?.statusCode == 200)
        }
        task.resume()
    }
}
