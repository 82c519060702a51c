// swift-format-ignore-file
import UIKit

/// Swift 1 and 2 spelled the begin `beginBackgroundTaskWithExpirationHandler(_:)`. The expiration handler ends
/// the task but leaves the identifier set, and `finishSync()` ends the same identifier again.
class SyncKeeper: NSObject {
    var syncTaskID: UIBackgroundTaskIdentifier = UIBackgroundTaskInvalid

    func startSync() {
        let application = UIApplication.sharedApplication()
        syncTaskID = application.beginBackgroundTaskWithExpirationHandler({ // expect: unpaired-begin-background-task
            NSLog("sync ran out of time")
            application.endBackgroundTask(self.syncTaskID)
        })
        uploadPendingChanges()
    }

    func finishSync() {
        UIApplication.sharedApplication().endBackgroundTask(syncTaskID)
    }

    func uploadPendingChanges() {}
}

/// The same spelling with a trailing closure that only logs: nothing ends the task when time runs out.
class ExportKeeper: NSObject {
    func export() {
        let application = UIApplication.sharedApplication()
        var exportID = UIBackgroundTaskInvalid
        exportID = application.beginBackgroundTaskWithExpirationHandler { // expect: unpaired-begin-background-task
            NSLog("export ran out of time")
        }
        writeArchive()
        application.endBackgroundTask(exportID)
    }

    func writeArchive() {}
}

/// The begin called on `UIApplication.sharedApplication()` itself, into a local: the early return for an empty
/// outbox leaves the task running.
class OutboxFlusher: NSObject {
    var outbox: [String] = []

    func flush() {
        var flushID = UIBackgroundTaskInvalid
        flushID = UIApplication.sharedApplication().beginBackgroundTaskWithExpirationHandler {
            UIApplication.sharedApplication().endBackgroundTask(flushID)
            flushID = UIBackgroundTaskInvalid
        }
        if outbox.isEmpty {
            return // expect: unpaired-begin-background-task
        }
        send(outbox)
        UIApplication.sharedApplication().endBackgroundTask(flushID)
        flushID = UIBackgroundTaskInvalid
    }

    func send(_ items: [String]) {}
}
