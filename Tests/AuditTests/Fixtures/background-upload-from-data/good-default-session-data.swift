// swift-format-ignore-file
import Foundation

final class Feedback {
    let session = URLSession(configuration: .default)

    func send(_ body: Data, request: URLRequest) {
        session.uploadTask(with: request, from: body).resume()
        URLSession.shared.uploadTask(with: request, from: body) { _, _, _ in }.resume()
    }
}
