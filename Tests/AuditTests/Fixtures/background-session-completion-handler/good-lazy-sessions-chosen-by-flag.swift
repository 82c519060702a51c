// swift-format-ignore-file
import Foundation

// Two sessions made in property initializers, each from its own local `config`: the background one gets upload
// tasks from files, its results reaching the delegate; completion handlers go only to the foreground one, also
// when it is picked by a flag among foreground sessions.
final class BatchSender: NSObject, URLSessionDataDelegate {
    private lazy var backgroundSession: URLSession = {
        let config = URLSessionConfiguration.background(withIdentifier: "com.example.batches")
        return URLSession(configuration: config, delegate: self, delegateQueue: nil)
    }()

    private lazy var foregroundSession: URLSession = {
        let config = URLSessionConfiguration.default
        return URLSession(configuration: config)
    }()

    private lazy var meteredSession: URLSession = {
        let config = URLSessionConfiguration.ephemeral
        config.allowsExpensiveNetworkAccess = false
        return URLSession(configuration: config)
    }()

    func upload(_ request: URLRequest, file: URL) {
        backgroundSession.uploadTask(with: request, fromFile: file).resume()
    }

    func send(_ request: URLRequest, metered: Bool, done: @escaping (Bool) -> Void) {
        let session = metered ? meteredSession : foregroundSession
        session.dataTask(with: request) { _, response, _ in
            done((response as? HTTPURLResponse)?.statusCode == 200)
        }.resume()
    }
}
