// swift-format-ignore-file
import UIKit

final class PushRouter {
    static let shared = PushRouter()

    func route(_ userInfo: [AnyHashable: Any], completion: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let kind = userInfo["kind"] as? String else {
            completion(.noData)
            return
        }
        if kind == "entries" {
            EntrySync.shared.run { completion($0 ? .newData : .failed) }
        } else {
            completion(.noData)
        }
    }
}
