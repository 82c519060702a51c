// swift-format-ignore-file
import Foundation

/// The configuration a computed property makes is the default one: the session made from it needs no delegate.
final class LinkSubmitter {
    private var uploadConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.sharedContainerIdentifier = "group.com.example.links"
        return configuration
    }

    func submit(_ request: URLRequest, body: URL) {
        let session = URLSession(configuration: uploadConfiguration)
        session.uploadTask(with: request, fromFile: body).resume()
    }
}
