// swift-format-ignore-file
import Foundation

final class WeatherClient {
    private let session = URLSession(configuration: .default)
    private let backgroundConfiguration = "com.example.unused-background-name"

    func current(_ url: URL, completion: @escaping (Data?) -> Void) {
        session.dataTask(with: url) { data, _, _ in completion(data) }.resume()
        URLSession.shared.dataTask(with: url) { data, _, _ in completion(data) }.resume()
    }

    func forecast(_ url: URL) async throws -> Data {
        try await session.data(from: url).0
    }
}
