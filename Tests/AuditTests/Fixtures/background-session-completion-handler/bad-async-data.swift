// swift-format-ignore-file
import Foundation

actor FeedClient {
    static let backgroundSession = URLSession( // expect: background-session-without-delegate
        configuration: .background(withIdentifier: "com.example.feed"), delegate: nil, delegateQueue: nil)

    func latest(from url: URL) async throws -> Data {
        let (data, _) = try await Self.backgroundSession.data(from: url) // expect: background-session-completion-handler
        return data
    }
}
