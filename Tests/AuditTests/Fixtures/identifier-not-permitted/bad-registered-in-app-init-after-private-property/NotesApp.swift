// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The app registers its task in its initializer, written after a `private` property: the initializer is the
/// app's own, which SwiftUI calls at launch, and the identifier is missing from the permitted list.
@main
struct NotesApp: App {
    @Environment(\.scenePhase) private var scenePhase

    init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.notes.backup", using: nil) { task in // expect: identifier-not-permitted
            Backup.run { task.setTaskCompleted(success: $0) }
            task.expirationHandler = { Backup.cancel() }
            NotesApp.scheduleBackup()
        }
        NotesApp.scheduleBackup()
    }

    var body: some Scene {
        WindowGroup { Text("Notes") }
    }

    static func scheduleBackup() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.notes.backup"))
    }
}

enum Backup {
    static func run(_ done: @escaping (Bool) -> Void) { done(true) }
    static func cancel() {}
}
