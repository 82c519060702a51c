// swift-format-ignore-file
import Foundation

final class Uploader: NSObject, URLSessionTaskDelegate {
    static let shared = Uploader()
    private(set) lazy var session = URLSession(
        configuration: .background(withIdentifier: "com.example.upload"), delegate: self, delegateQueue: nil)
}
