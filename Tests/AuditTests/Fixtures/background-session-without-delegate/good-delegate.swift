// swift-format-ignore-file
import Foundation

final class PhotoUploader: NSObject, URLSessionTaskDelegate {
    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.photos")
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func upload(_ file: URL, to request: URLRequest) {
        session.uploadTask(with: request, fromFile: file).resume()
    }
}
