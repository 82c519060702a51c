// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The app schedules the refresh at launch, but the method that would register its handler is called by nothing
/// (the line above it, which ends in `()`, is no attribute of it).
@main
struct ReaderApp: App {
    init() { FeedRefresher.shared.schedule() }
    var body: some Scene { WindowGroup { Text("Feed") } }
}

final class FeedRefresher {
    static let shared = FeedRefresher()
    func setUpTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.reader.refresh", using: nil) { task in
            FeedRefresher.shared.schedule()
            task.setTaskCompleted(success: true)
        }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.reader.refresh")) // expect: submitted-never-registered
    }
}
