// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct StepsApp: App {
    var body: some Scene {
        WindowGroup { StepsView() }
            .backgroundTask(.appRefresh("com.example.steps")) {
                scheduleStepsRefresh()
                await StepStore.shared.importLatest()
            }
    }

    init() {
        scheduleStepsRefresh()
    }
}

func scheduleStepsRefresh() {
    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.steps"))
}
