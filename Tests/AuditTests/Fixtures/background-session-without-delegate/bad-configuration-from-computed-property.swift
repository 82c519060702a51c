// swift-format-ignore-file
import Foundation

/// The background configuration is made by a computed property; the session made from it has no delegate.
final class LinkSubmitter {
    private var backgroundConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.links.\(UUID().uuidString)")
        configuration.sharedContainerIdentifier = "group.com.example.links"
        return configuration
    }

    func submit(_ request: URLRequest, body: URL) {
        let session = URLSession(configuration: backgroundConfiguration) // expect: background-session-without-delegate
        session.uploadTask(with: request, fromFile: body).resume()
    }
}
