// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

struct RootView: View {
    init() {
        // SwiftUI may build this view many times, and only after launch.
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect: register-outside-launch
            task.expirationHandler = { Feed.cancel() }
            scheduleRefresh()
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        scheduleRefresh()
    }

    var body: some View { Text("Feed") }
}

func scheduleRefresh() {
    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
}
