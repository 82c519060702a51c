// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct DiaryApp: App {
    init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            scheduleSync()
            let work = Task {
                try await SyncEngine.shared.push() // expect: handler-not-completed
                task.setTaskCompleted(success: true)
            }
            task.expirationHandler = { work.cancel() }
        }
        scheduleSync()
    }

    var body: some Scene { WindowGroup { DiaryView() } }
}

func scheduleSync() {
    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
}
