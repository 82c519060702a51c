// swift-format-ignore-file
import UIKit

// The observer runs on every willResignActive; a second one replaces the identifier of a task that may still run.
final class DraftSaver: NSObject {
    private var saveTask: UIBackgroundTaskIdentifier = .invalid

    override init() {
        super.init()
        NotificationCenter.default.addObserver(
            self, selector: #selector(appWillResignActive), name: UIApplication.willResignActiveNotification,
            object: nil)
    }

    @objc private func appWillResignActive() {
        saveTask = UIApplication.shared.beginBackgroundTask(withName: "drafts") { // expect: unpaired-begin-background-task
            self.finishSaving()
        }
        Drafts.saveAll { self.finishSaving() }
    }

    private func finishSaving() {
        UIApplication.shared.endBackgroundTask(saveTask)
        saveTask = .invalid
    }
}
