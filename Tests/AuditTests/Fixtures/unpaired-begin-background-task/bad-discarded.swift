// swift-format-ignore-file
import UIKit

final class DraftSaver {
    func applicationDidEnterBackground() {
        // The identifier is thrown away: nothing can end this task.
        UIApplication.shared.beginBackgroundTask { // expect: unpaired-begin-background-task
            Drafts.shared.cancelSave()
        }
        Drafts.shared.save()
    }
}
