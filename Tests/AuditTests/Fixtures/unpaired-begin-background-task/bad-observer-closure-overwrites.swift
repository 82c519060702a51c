// swift-format-ignore-file
import UIKit

final class UploadQueue {
    private var flushTask: UIBackgroundTaskIdentifier = .invalid
    private var observer: NSObjectProtocol?

    init() {
        observer = NotificationCenter.default.addObserver(
            forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main
        ) { [unowned self] _ in
            flushTask = UIApplication.shared.beginBackgroundTask { // expect: unpaired-begin-background-task
                self.endFlush()
            }
            Uploads.flush { self.endFlush() }
        }
    }

    private func endFlush() {
        UIApplication.shared.endBackgroundTask(flushTask)
        flushTask = .invalid
    }
}
