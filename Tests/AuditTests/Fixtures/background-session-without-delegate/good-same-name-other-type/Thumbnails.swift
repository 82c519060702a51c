// swift-format-ignore-file
import Foundation

// `config` here is this type's own, an ordinary configuration: no delegate needed.
final class Thumbnails {
    let config = URLSessionConfiguration.default
    lazy var session = URLSession(configuration: config)

    func load(_ url: URL, completion: @escaping (Data?) -> Void) {
        session.dataTask(with: url) { data, _, _ in completion(data) }.resume()
    }
}
