// swift-format-ignore-file
import Foundation

enum Podcasts {
    static let downloads = URLSession( // expect: background-session-without-delegate
        configuration: .background(withIdentifier: "com.example.episodes"), delegate: nil, delegateQueue: .main)

    static func fetch(_ episode: URL) {
        downloads.downloadTask(with: episode).resume()
    }
}
