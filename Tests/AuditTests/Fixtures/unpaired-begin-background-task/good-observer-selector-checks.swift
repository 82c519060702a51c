// swift-format-ignore-file
import UIKit

// The same observer, but a task already held is left to finish instead of being replaced.
final class DraftSaver: NSObject {
    private var saveTask: UIBackgroundTaskIdentifier = .invalid

    override init() {
        super.init()
        NotificationCenter.default.addObserver(
            self, selector: #selector(appWillResignActive), name: UIApplication.willResignActiveNotification,
            object: nil)
    }

    @objc private func appWillResignActive() {
        guard saveTask == .invalid else { return }
        saveTask = UIApplication.shared.beginBackgroundTask(withName: "drafts") {
            self.finishSaving()
        }
        Drafts.saveAll { self.finishSaving() }
    }

    private func finishSaving() {
        guard saveTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(saveTask)
        saveTask = .invalid
    }
}
