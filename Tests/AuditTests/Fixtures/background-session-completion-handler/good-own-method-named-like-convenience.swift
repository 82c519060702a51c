// swift-format-ignore-file
import Foundation

/// The app's loader is reached through a shared instance named `session`; its own `upload(file:to:completion:)`
/// makes a task without a completion handler on its background session and calls back from the delegate. It is not
/// `URLSession`'s `async` `upload(for:from:)`.
final class Loader: NSObject, URLSessionDataDelegate {
    static let session = Loader()
    private var session: URLSession!
    private var completions: [Int: (Bool) -> Void] = [:]

    override init() {
        super.init()
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.loader")
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func upload(file: URL, to url: URL, completion: @escaping (Bool) -> Void) {
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        let task = session.uploadTask(with: request, fromFile: file)
        completions[task.taskIdentifier] = completion
        task.resume()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        completions.removeValue(forKey: task.taskIdentifier)?(error == nil)
    }
}

final class Outbox {
    func send(_ file: URL) {
        Loader.session.upload(file: file, to: URL(string: "https://example.com/outbox")!) { ok in
            print(ok ? "sent" : "will retry")
        }
    }
}
