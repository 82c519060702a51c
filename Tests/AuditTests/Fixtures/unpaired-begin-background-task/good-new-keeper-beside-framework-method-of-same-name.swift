// swift-format-ignore-file
import QuartzCore
import UIKit

/// Each move to the background makes a new keeper and begins its task; `CATransaction.begin()`, a framework method
/// of the same name, is no call of the keeper's `begin()`.
final class AssetPoolBackgroundTask {
    private let application: UIApplication
    private var identifier = UIBackgroundTaskIdentifier.invalid

    init(application: UIApplication) {
        self.application = application
    }

    class func run(application: UIApplication, handler: (AssetPoolBackgroundTask) -> Void) {
        let keeper = AssetPoolBackgroundTask(application: application)
        keeper.begin()
        handler(keeper)
    }

    func begin() {
        identifier = application.beginBackgroundTask { self.end() }
    }

    func end() {
        if identifier != .invalid { application.endBackgroundTask(identifier) }
        identifier = .invalid
    }
}

final class AssetPool: NSObject {
    override init() {
        super.init()
        NotificationCenter.default.addObserver(
            self, selector: #selector(didEnterBackground), name: UIApplication.didEnterBackgroundNotification,
            object: nil)
    }

    @objc func didEnterBackground(_ notification: Notification) {
        AssetPoolBackgroundTask.run(application: UIApplication.shared) { keeper in
            Downloads.pauseAll()
            keeper.end()
        }
    }

    func animateProgress() {
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.2)
        CATransaction.commit()
    }
}
