// swift-format-ignore-file
import UIKit

actor NoteUploader {
    func upload(_ notes: [Note]) async {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = await UIApplication.shared.beginBackgroundTask(withName: "notes") {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        defer {
            if taskID != .invalid { Task { @MainActor in UIApplication.shared.endBackgroundTask(taskID) } }
        }
        await Server.send(notes)
    }
}
