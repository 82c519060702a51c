// swift-format-ignore-file
import Foundation

// A different `session`, in another file: an ordinary one, where completion handlers are fine.
final class SearchClient {
    let session = URLSession(configuration: .ephemeral)

    func search(_ url: URL, completion: @escaping (Data?) -> Void) {
        session.dataTask(with: url) { data, _, _ in completion(data) }.resume()
    }
}
