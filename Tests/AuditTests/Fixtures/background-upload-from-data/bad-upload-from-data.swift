// swift-format-ignore-file
import Foundation

final class LogShipper: NSObject, URLSessionTaskDelegate {
    lazy var backgroundSession: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.logs")
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func ship(_ logs: Data, to endpoint: URL) {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        backgroundSession.uploadTask(with: request, from: logs).resume() // expect: background-upload-from-data
    }
}
