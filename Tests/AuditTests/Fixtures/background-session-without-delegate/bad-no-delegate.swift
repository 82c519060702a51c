// swift-format-ignore-file
import Foundation

final class PhotoUploader {
    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.photos")
        configuration.sessionSendsLaunchEvents = true
        return URLSession(configuration: configuration) // expect: background-session-without-delegate
    }()

    func upload(_ file: URL, to request: URLRequest) {
        session.uploadTask(with: request, fromFile: file).resume()
    }
}
