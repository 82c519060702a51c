// swift-format-ignore-file
import Foundation

final class Sync: NSObject, URLSessionDataDelegate {
    lazy var session = URLSession(
        configuration: .background(withIdentifier: "com.example.sync"), delegate: self, delegateQueue: nil)

    func pull(_ url: URL) {
        // Not this: session.dataTask(with: url) { data, _, _ in … } — completion handlers crash here.
        let explanation = "session.downloadTask(with: url) { location, _, _ in }"
        print(explanation)
        session.downloadTask(with: url).resume()
    }
}
