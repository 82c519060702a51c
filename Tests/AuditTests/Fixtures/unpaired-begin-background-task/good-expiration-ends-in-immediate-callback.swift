// swift-format-ignore-file
import UIKit
import CoreLocation

/// The expiration handler reads the last known position through a function that calls its closure before it
/// returns, and the closure ends the task: the task is over before the handler returns.
final class PositionCache {
    private var last: CLLocation?

    func lastKnown(_ body: (CLLocation?) -> Void) {
        body(last)
    }
}

final class Tracker {
    private let cache = PositionCache()
    private var task: UIBackgroundTaskIdentifier = .invalid

    func startBackground() {
        task = UIApplication.shared.beginBackgroundTask(withName: "track") { [weak self] in
            self?.settle()
        }
        settle()
    }

    private func settle() {
        cache.lastKnown { [weak self] location in
            self?.deliver(location)
        }
    }

    private func deliver(_ location: CLLocation?) {
        if task != .invalid {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }
}
