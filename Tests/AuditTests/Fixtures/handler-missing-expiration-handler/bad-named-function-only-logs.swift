// swift-format-ignore-file
import BackgroundTasks
import os

let syncLog = Logger(subsystem: "com.example", category: "sync")

enum NotesSync {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.notes", using: nil, launchHandler: run(task:))
    }

    static func sceneDidEnterBackground() { schedule() }

    static func run(task: BGTask) {
        schedule()
        task.expirationHandler = { // expect: handler-missing-expiration-handler
            syncLog.warning("notes sync expired")
        }
        Notes.push { task.setTaskCompleted(success: $0) }
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.notes"))
    }
}
