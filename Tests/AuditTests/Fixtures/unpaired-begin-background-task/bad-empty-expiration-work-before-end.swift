// swift-format-ignore-file
import UIKit

extension UIApplication {
    /// The draft is saved between the begin and the end: if saving runs out of time, the empty expiration handler
    /// leaves the task running and iOS ends the app.
    func saveDraftInBackground(_ draft: String) {
        let taskID = self.beginBackgroundTask(expirationHandler: { }) // expect: unpaired-begin-background-task
        DraftStore.shared.save(draft)
        self.endBackgroundTask(taskID)
    }
}

final class DraftStore {
    static let shared = DraftStore()
    func save(_ draft: String) {}
}
