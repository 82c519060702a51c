// swift-format-ignore-file
import Foundation

final class PhotoUploader: NSObject, URLSessionTaskDelegate {
    private var uploads: URLSession!

    override init() {
        super.init()
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.photos")
        uploads = URLSession(configuration: configuration, delegate: self, delegateQueue: .main)
    }

    func upload(_ file: URL, to request: URLRequest) {
        uploads.uploadTask(with: request, fromFile: file) { _, _, error in // expect: background-session-completion-handler
            if let error { print("upload failed: \(error)") }
        }.resume()
    }
}
