// swift-format-ignore-file
import SwiftUI

/// A watch app's refresh action runs only when WatchKit's scheduleBackgroundRefresh asks for it, and nothing does.
@main
struct ClockApp: App {
    var body: some Scene {
        WindowGroup { Text("Clock") }
            .backgroundTask(.appRefresh("updateClock")) { _ in // expect: registered-never-submitted
                await ClockData.refresh()
            }
    }
}
