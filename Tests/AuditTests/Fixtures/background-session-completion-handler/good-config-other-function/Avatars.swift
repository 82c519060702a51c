// swift-format-ignore-file
import Foundation

// The same local names, `config` and `session`, in another type's function: an ephemeral session.
final class Avatars {
    func load(_ url: URL, completion: @escaping (Data?) -> Void) {
        let config = URLSessionConfiguration.ephemeral
        let session = URLSession(configuration: config)
        session.dataTask(with: url) { data, _, _ in completion(data) }.resume()
    }

    func loadAgain(_ url: URL) async throws -> Data {
        let session = URLSession.shared
        return try await session.data(from: url).0
    }
}
