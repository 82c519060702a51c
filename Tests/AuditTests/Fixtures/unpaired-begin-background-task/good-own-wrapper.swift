// swift-format-ignore-file
import UIKit

/// The app's own `beginBackgroundTask`: it returns a callback that ends the task, and its callers call that.
final class Platform {
    static let current = Platform()

    func beginBackgroundTask() -> () -> Void {
        var id = UIBackgroundTaskIdentifier.invalid
        id = UIApplication.shared.beginBackgroundTask(withName: "upload") {
            UIApplication.shared.endBackgroundTask(id)
            id = .invalid
        }
        return {
            guard id != .invalid else { return }
            UIApplication.shared.endBackgroundTask(id)
            id = .invalid
        }
    }
}

final class Uploader {
    func upload(_ events: [Event]) {
        let finish = Platform.current.beginBackgroundTask()
        Server.send(events) { _ in finish() }
    }
}
