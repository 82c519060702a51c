// swift-format-ignore-file
import UIKit

/// The identifier's property ends the task it held whenever it changes: clearing it, in the expiration handler and
/// when the countdown ends, ends the task.
final class Countdown {
    private var task: UIBackgroundTaskIdentifier? = nil {
        willSet {
            if let task { UIApplication.shared.endBackgroundTask(task) }
        }
    }

    func start(seconds: TimeInterval) {
        guard task == nil else { return }
        task = UIApplication.shared.beginBackgroundTask(withName: "countdown") { [weak self] in
            self?.task = nil
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { [weak self] in
            self?.task = nil
        }
    }
}
