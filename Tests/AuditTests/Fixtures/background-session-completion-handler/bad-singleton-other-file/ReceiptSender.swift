// swift-format-ignore-file
import Foundation

struct ReceiptSender {
    func send(_ request: URLRequest, file: URL) {
        Uploader.shared.session.uploadTask(with: request, fromFile: file) { _, _, _ in } // expect: background-session-completion-handler
            .resume()
    }
}
