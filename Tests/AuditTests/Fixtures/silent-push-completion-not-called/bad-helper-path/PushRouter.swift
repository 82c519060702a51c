// swift-format-ignore-file
import UIKit

final class PushRouter {
    static let shared = PushRouter()

    func route(_ userInfo: [AnyHashable: Any], completion: @escaping (UIBackgroundFetchResult) -> Void) {
        if let kind = userInfo["kind"] as? String, kind == "entries" { // expect: silent-push-completion-not-called
            EntrySync.shared.run { completion($0 ? .newData : .failed) }
        }
    }
}
