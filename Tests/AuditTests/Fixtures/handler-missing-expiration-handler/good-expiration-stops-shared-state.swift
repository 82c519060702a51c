// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The time-out note formats its line in locals and logs it, and also stops the sync: it cancels the shared queue
/// through a local name for it and marks the shared state, both of which outlive the call.
enum SyncLog {
    static func timedOut(_ message: String) {
        let queue = SyncQueue.shared
        var line = message
        line = "[timeout] " + line
        print(line)
        SyncState.shared.stopped = true
        queue.cancelAll()
    }
}

enum NotesSync {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.notes", using: nil) { task in
            schedule()
            task.expirationHandler = {
                SyncLog.timedOut("notes sync ran out of time")
            }
            Notes.sync { task.setTaskCompleted(success: $0) }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.notes"))
    }
}
