// swift-format-ignore-file
import UIKit

final class BackgroundWork {
    private var identifier: UIBackgroundTaskIdentifier = .invalid

    static func begin(named name: String) -> BackgroundWork {
        let work = BackgroundWork()
        let expire = {
            print("\(name) ran out of time")
            work.end()
        }
        work.identifier = UIApplication.shared.beginBackgroundTask(withName: name, expirationHandler: expire)
        return work
    }

    func end() {
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
    }
}
