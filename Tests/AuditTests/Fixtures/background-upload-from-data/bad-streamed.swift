// swift-format-ignore-file
import Foundation

final class VideoUploader: NSObject, URLSessionTaskDelegate {
    private var session: URLSession!

    override init() {
        super.init()
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.video")
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func upload(_ request: URLRequest) {
        let task = session.uploadTask(withStreamedRequest: request) // expect: background-upload-from-data
        task.resume()
    }
}
