// swift-format-ignore-file
import UIKit

final class EntryStore {
    func persist(_ entry: Entry) {
        let taskID = UIApplication.shared.beginBackgroundTask(withName: "persist-entry", expirationHandler: nil) // expect: unpaired-begin-background-task
        Database.shared.write(entry) {
            UIApplication.shared.endBackgroundTask(taskID)
        }
    }
}
