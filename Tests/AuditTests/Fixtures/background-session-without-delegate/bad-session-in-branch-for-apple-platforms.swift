// swift-format-ignore-file
import Foundation

/// The background session is made only where `FoundationNetworking` cannot be imported, which is every Apple
/// platform: an iPhone builds this branch, and the session has no delegate.
public final class ModelDownloader {
    #if !canImport(FoundationNetworking)
    private static let backgroundSession: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.models.background")
        configuration.sessionSendsLaunchEvents = true
        return URLSession(configuration: configuration) // expect: background-session-without-delegate
    }()
    #endif
}
