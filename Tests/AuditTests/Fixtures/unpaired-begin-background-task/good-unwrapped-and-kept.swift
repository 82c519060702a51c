// swift-format-ignore-file
import UIKit

final class TaskRegistry {
    private var tasks: [String: UIBackgroundTaskIdentifier] = [:]

    func start(_ key: String) {
        var task: UIBackgroundTaskIdentifier?
        task = UIApplication.shared.beginBackgroundTask(withName: key) { [weak self] in
            self?.finish(key)
        }
        // Kept, unwrapped, under its key: `finish` ends it once.
        tasks.updateValue(task!, forKey: key)
    }

    func finish(_ key: String) {
        guard let task = tasks.removeValue(forKey: key) else { return }
        UIApplication.shared.endBackgroundTask(task)
    }
}
