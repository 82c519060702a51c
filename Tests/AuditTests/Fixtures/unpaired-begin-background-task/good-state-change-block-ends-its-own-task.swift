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
                self?.backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Send logs") {
                    guard let taskID = self?.backgroundTaskID else { return }
                    UIApplication.shared.endBackgroundTask(taskID)
                    self?.backgroundTaskID = .invalid
                }
                self?.sendPending()
                guard let taskID = self?.backgroundTaskID else { return }
                UIApplication.shared.endBackgroundTask(taskID)
                self?.backgroundTaskID = .invalid
            }
        }
    }

    private func sendPending() {}
}
