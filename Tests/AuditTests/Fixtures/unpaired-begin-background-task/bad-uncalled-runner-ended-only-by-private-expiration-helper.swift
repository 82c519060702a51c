// swift-format-ignore-file
import UIKit

/// A runner the shared Kotlin code calls (nothing in the Swift sources does): its task is ended only by a private
/// function the expiration handler calls, which no outside caller can reach, so a run that finishes in time never
/// ends it.
final class IosBackgroundRunner: BackgroundRunner {
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid
    private var work: DispatchWorkItem?

    func invoke(longRunningProcess: @escaping () -> Void) {
        backgroundTask = UIApplication.shared.beginBackgroundTask(expirationHandler: { // expect: unpaired-begin-background-task
            self.endBackgroundTask()
        })
        let item = DispatchWorkItem(block: longRunningProcess)
        work = item
        DispatchQueue.global().async(execute: item)
    }

    private func endBackgroundTask() {
        if backgroundTask != .invalid {
            UIApplication.shared.endBackgroundTask(backgroundTask)
            backgroundTask = .invalid
        }
        work?.cancel()
        work = nil
    }
}
