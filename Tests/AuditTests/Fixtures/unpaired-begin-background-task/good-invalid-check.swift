// swift-format-ignore-file
import UIKit

final class Fetcher {
    func fetch(completion: @escaping () -> Void) {
        var task: UIBackgroundTaskIdentifier = .invalid
        task = UIApplication.shared.beginBackgroundTask {
            Engine.stop()
            if task != .invalid {
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        }
        DispatchQueue.global().async {
            Engine.fetch()
            completion()
            if task != .invalid {
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        }
    }
}
