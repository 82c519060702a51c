// swift-format-ignore-file
import Foundation

final class Backup: NSObject, URLSessionTaskDelegate {
    lazy var session = URLSession(
        configuration: .background(withIdentifier: "com.example.backup"), delegate: self, delegateQueue: nil)

    /// Uploads from a file: `session.uploadTask(with: request, from: data)` would raise in a background session.
    func upload(_ archive: URL, request: URLRequest) {
        /* session.uploadTask(with: request, from: try! Data(contentsOf: archive)) */
        session.uploadTask(with: request, fromFile: archive).resume()
    }
}
