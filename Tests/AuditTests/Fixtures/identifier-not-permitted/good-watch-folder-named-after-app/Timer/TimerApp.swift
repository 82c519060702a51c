// swift-format-ignore-file
import BackgroundTasks
import SwiftUI
import UIKit

/// The iOS app registers its own refresh, which its plist permits, and asks for the first one at launch.
@main
struct TimerApp: App {
    init() {
        Task { await TimerApp.scheduleNext() }
    }

    var body: some Scene {
        WindowGroup { Text("Timer") }
            .backgroundTask(.appRefresh("timer.refresh")) {
                await TimerApp.scheduleNext()
            }
    }

    static func scheduleNext() async {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "timer.refresh"))
    }
}
