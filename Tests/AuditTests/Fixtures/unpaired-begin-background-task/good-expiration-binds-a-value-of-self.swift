// swift-format-ignore-file
import UIKit

/// The expiration handler holds `self` strongly and returns only when the stored task is no longer valid (its
/// `state` is `nil`): a value read from `self`, not `self` gone, so nothing is left unended.
public final class TaskTracker {
    private var storedID = UIBackgroundTaskIdentifier.invalid
    private var state: UIBackgroundTaskIdentifier? { storedID == .invalid ? nil : storedID }

    public init(name: String) {
        storedID = UIApplication.shared.beginBackgroundTask(withName: name) {
            guard let current = self.state else {
                return
            }
            self.storedID = .invalid
            UIApplication.shared.endBackgroundTask(current)
        }
    }

    public func end() {
        guard storedID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(storedID)
        storedID = .invalid
    }
}
