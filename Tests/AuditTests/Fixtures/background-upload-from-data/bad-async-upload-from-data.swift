// swift-format-ignore-file
import Foundation

struct HealthExport {
    static let backgroundSession = URLSession(configuration: .background(withIdentifier: "com.example.export")) // expect: background-session-without-delegate

    func send(_ payload: Data, to request: URLRequest) async throws {
        _ = try await Self.backgroundSession.upload(for: request, from: payload) // expect: background-upload-from-data, background-session-completion-handler
    }
}
