// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The app's log formats each line in locals and appends it to a file through a handle it opens itself; when the
/// log folder cannot be made, it says so through itself. None of it reaches the task or the sync.
enum AppLog {
    static func warn(_ message: String) {
        var line = message
        line = "[warn] " + line
        write(line)
    }

    private static func write(_ line: String) {
        guard let data = (line + "\n").data(using: .utf8) else { return }
        let url = folder().appendingPathComponent("app.log")
        do {
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            handle.write(data)
            handle.closeFile()
        } catch {}
    }

    private static func folder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("logs")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            warn("no log folder")
        }
        return url
    }
}

enum NotesSync {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.notes", using: nil) { task in
            schedule()
            task.expirationHandler = { // expect: handler-missing-expiration-handler
                AppLog.warn("notes sync ran out of time")
            }
            Notes.sync { task.setTaskCompleted(success: $0) }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.notes"))
    }
}
