// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

// The action's identifier is never requested, so the action never runs: that is the registration's mistake (no request
// is ever submitted), not a chain the action fails to continue.
@main
struct StreakApp: App {
    var body: some Scene {
        WindowGroup { StreakView() }
            .backgroundTask(.appRefresh("com.example.streak.refresh")) { // expect: registered-never-submitted
                await StreakStore.shared.reloadWidgets()
            }
    }
}
