// swift-format-ignore-file
import UIKit

/// Tasks kept by name in a dictionary; whoever ends a name reads it back from there.
final class NamedTasks {
    private var tasks: [String: UIBackgroundTaskIdentifier] = [:]

    func start(_ name: String) {
        tasks[name] = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            self?.end(name)
        }
    }

    func end(_ name: String) {
        guard let task = tasks.removeValue(forKey: name) else { return }
        UIApplication.shared.endBackgroundTask(task)
    }
}
