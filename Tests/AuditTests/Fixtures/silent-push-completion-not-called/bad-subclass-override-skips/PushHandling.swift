// swift-format-ignore-file
import UIKit

/// A push library: the base handler leaves the work to the subclass the app installs.
open class PushHandling {
    open func refresh(silent _: Bool, completion _: ((UIBackgroundFetchResult) -> Void)?) {}

    public func handle(_ userInfo: [AnyHashable: Any], completion: @escaping (UIBackgroundFetchResult) -> Void) {
        route(userInfo, completion: completion)
    }

    private func route(_ userInfo: [AnyHashable: Any], completion: ((UIBackgroundFetchResult) -> Void)? = nil) {
        refresh(silent: userInfo["aps"] != nil, completion: completion)
    }
}

final class PushCenter {
    static let shared = PushCenter()
    var handling = PushHandling()
}
