// swift-format-ignore-file
import UIKit

// The observer looks at the task held before it asks for a new one; the function that begins it does not need to.
final class Ticker: NSObject {
    private var keepAlive: UIBackgroundTaskIdentifier = .invalid
    private var timer: Timer?

    override init() {
        super.init()
        NotificationCenter.default.addObserver(
            self, selector: #selector(becameActive), name: UIApplication.didBecomeActiveNotification, object: nil)
    }

    @objc private func becameActive() {
        if timer != nil && keepAlive == .invalid {
            beginKeepAlive()
        }
    }

    private func beginKeepAlive() {
        keepAlive = UIApplication.shared.beginBackgroundTask { [weak self] in
            self?.endKeepAlive()
        }
    }

    func stop() {
        timer?.invalidate()
        timer = nil
        endKeepAlive()
    }

    private func endKeepAlive() {
        UIApplication.shared.endBackgroundTask(keepAlive)
        keepAlive = .invalid
    }
}
