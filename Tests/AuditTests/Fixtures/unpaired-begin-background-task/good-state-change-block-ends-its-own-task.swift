// swift-format-ignore-file
import UIKit

/// On each move to the background a block on one serial queue begins a task into the property, sends the pending
/// logs synchronously and ends the task before it returns: the next move's block finds none held.
final class CloudAppender {
    private var backgroundTaskID: UIBackgroundTaskIdentifier = .invalid
    private var observer: NSObjectProtocol?
    private let queue = DispatchQueue(label: "com.example.logs")

    init() {
        observer = NotificationCenter.default.addObserver(
            forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil
        ) { [weak self] _ in
            self?.queue.async {
                guard let self else { return }
                self.backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Send logs") {
                    UIApplication.shared.endBackgroundTask(self.backgroundTaskID)
                    self.backgroundTaskID = .invalid
                }
                self.sendPending()
                UIApplication.shared.endBackgroundTask(self.backgroundTaskID)
                self.backgroundTaskID = .invalid
            }
        }
    }

    private func sendPending() {}
}
