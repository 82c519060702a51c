// swift-format-ignore-file
import Foundation

final class API {
    // An ordinary session needs no delegate.
    let session = URLSession(configuration: .default)
    private let configuration = URLSessionConfiguration.ephemeral

    func client() -> URLSession {
        URLSession(configuration: configuration)
    }
}
