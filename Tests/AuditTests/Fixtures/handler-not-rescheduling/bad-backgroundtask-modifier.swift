// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct StepsApp: App {
    @Environment(\.scenePhase) private var phase

    var body: some Scene {
        WindowGroup { StepsView() }
            .onChange(of: phase) { _, newPhase in
                if newPhase == .background { scheduleStepsRefresh() }
            }
            .backgroundTask(.appRefresh("com.example.steps")) { // expect: handler-not-rescheduling
                await StepStore.shared.importLatest()
            }
    }
}

func scheduleStepsRefresh() {
    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.steps"))
}
