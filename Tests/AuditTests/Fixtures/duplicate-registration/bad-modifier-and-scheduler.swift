// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct NewsApp: App {
    init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.news", using: nil) { task in // expect: chain-never-starts
            task.expirationHandler = { Headlines.cancel() }
            scheduleNews()
            Headlines.load { task.setTaskCompleted(success: $0) }
        }
    }

    var body: some Scene {
        WindowGroup { HeadlinesView() }
            // The scene modifier registers "com.example.news" too: a second registration.
            .backgroundTask(.appRefresh("com.example.news")) { // expect: duplicate-registration
                scheduleNews()
                await Headlines.load()
            }
    }
}

func scheduleNews() {
    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.news"))
}
