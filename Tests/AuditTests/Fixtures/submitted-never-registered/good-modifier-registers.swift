// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct StepsApp: App {
    @Environment(\.scenePhase) private var phase

    var body: some Scene {
        WindowGroup { StepsView() }
            .backgroundTask(.appRefresh("com.example.steps")) {
                await schedule()
                await StepStore.shared.import()
            }
            .onChange(of: phase) { _, newPhase in
                if newPhase == .background { Task { await schedule() } }
            }
    }
}

@MainActor
func schedule() async {
    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.steps"))
}
