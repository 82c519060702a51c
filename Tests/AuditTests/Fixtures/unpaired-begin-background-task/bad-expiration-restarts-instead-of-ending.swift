// swift-format-ignore-file
import UIKit

/// When time runs out, the handler cancels the work and starts the whole thing again: the call back into
/// `keepSyncing()` begins and ends a task of its own, never the one that expired, which iOS then holds against the
/// app until it terminates it.
final class Syncer {
    private var work: DispatchWorkItem?

    func keepSyncing() {
        let taskID = UIApplication.shared.beginBackgroundTask(expirationHandler: { // expect: unpaired-begin-background-task
            self.work?.cancel()
            self.keepSyncing()
        })
        let item = DispatchWorkItem {
            Store.sync()
            UIApplication.shared.endBackgroundTask(taskID)
        }
        work = item
        DispatchQueue.global().async(execute: item)
    }
}

enum Store {
    static func sync() {}
}
