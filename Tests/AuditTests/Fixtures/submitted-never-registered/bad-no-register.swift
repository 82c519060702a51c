// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

struct SettingsView: View {
    @State private var backgroundSync = true

    var body: some View {
        Toggle("Sync in the background", isOn: $backgroundSync)
            .onChange(of: backgroundSync) { _, enabled in
                if enabled { scheduleSync() }
            }
    }

    private func scheduleSync() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.sync") // expect: submitted-never-registered
        request.earliestBeginDate = Date(timeIntervalSinceNow: 900)
        try? BGTaskScheduler.shared.submit(request)
    }
}
