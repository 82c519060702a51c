// swift-format-ignore-file
import UIKit

/// Swift 1 and 2's spellings, each task ended once: the expiration handler ends it and marks it invalid, and the
/// normal path ends it only while it is still valid.
class SyncKeeper: NSObject {
    var syncTaskID: UIBackgroundTaskIdentifier = UIBackgroundTaskInvalid

    func startSync() {
        let application = UIApplication.sharedApplication()
        syncTaskID = application.beginBackgroundTaskWithExpirationHandler({
            application.endBackgroundTask(self.syncTaskID)
            self.syncTaskID = UIBackgroundTaskInvalid
        })
        uploadPendingChanges()
    }

    func finishSync() {
        if syncTaskID != UIBackgroundTaskInvalid {
            UIApplication.sharedApplication().endBackgroundTask(syncTaskID)
            syncTaskID = UIBackgroundTaskInvalid
        }
    }

    func uploadPendingChanges() {}
}

class ExportKeeper: NSObject {
    func export() {
        let application = UIApplication.sharedApplication()
        var exportID = UIBackgroundTaskInvalid
        exportID = application.beginBackgroundTaskWithName("export", expirationHandler: {
            application.endBackgroundTask(exportID)
            exportID = UIBackgroundTaskInvalid
        })
        writeArchive()
        if exportID != UIBackgroundTaskInvalid {
            application.endBackgroundTask(exportID)
            exportID = UIBackgroundTaskInvalid
        }
    }

    func writeArchive() {}
}

/// The begin called on `UIApplication.sharedApplication()` itself, its identifier kept in a property: the expiration
/// handler and `stop()` both go through `stop()`, which marks it invalid before ending it.
class UploadAssertion {
    private var assertionID: UIBackgroundTaskIdentifier = UIBackgroundTaskInvalid

    func start() {
        self.assertionID = UIApplication.sharedApplication().beginBackgroundTaskWithExpirationHandler {
            self.stop()
        }
    }

    func stop() {
        if self.assertionID != UIBackgroundTaskInvalid {
            let ending = self.assertionID
            self.assertionID = UIBackgroundTaskInvalid
            UIApplication.sharedApplication().endBackgroundTask(ending)
        }
    }
}
