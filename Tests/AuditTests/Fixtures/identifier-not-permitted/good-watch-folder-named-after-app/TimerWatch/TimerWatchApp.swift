// swift-format-ignore-file
import SwiftUI
import WatchKit

/// The watch app's folder is named after the app with `Watch` appended, as XcodeGen projects often name it: its
/// refresh action runs when WatchKit's scheduled refresh comes, needing no permitted identifier, and the iOS app's
/// plist beside it has nothing to say about it.
@main
struct TimerWatchApp: App {
    var body: some Scene {
        WindowGroup { Text("Timer") }
            .backgroundTask(.appRefresh("timer.watch.refresh")) {
                await TimerWatchApp.scheduleNext()
            }
    }

    static func scheduleNext() async {
        try? await WKApplication.shared().scheduleBackgroundRefresh(
            withPreferredDate: Date(timeIntervalSinceNow: 1800), userInfo: nil)
    }
}
