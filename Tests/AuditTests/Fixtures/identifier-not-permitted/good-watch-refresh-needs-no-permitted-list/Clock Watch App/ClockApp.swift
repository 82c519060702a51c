// swift-format-ignore-file
import SwiftUI
import WatchKit

/// A watch app asks WatchKit for its refreshes, each scheduling the next: no BGTaskScheduler, so no permitted list in
/// its Info.plist.
@main
struct ClockApp: App {
    var body: some Scene {
        WindowGroup { Text("Clock") }
            .backgroundTask(.appRefresh("updateClock")) { _ in
                await ClockData.refresh()
                await ClockApp.scheduleNext()
            }
    }

    static func scheduleNext() async {
        try? await WKApplication.shared().scheduleBackgroundRefresh(
            withPreferredDate: Date(timeIntervalSinceNow: 3600), userInfo: nil)
    }
}
