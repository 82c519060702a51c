// swift-format-ignore-file
#if os(macOS)
import Foundation

enum ActivityScheduler {
    static func register() {
        let activity = NSBackgroundActivityScheduler(identifier: "com.example.tides.refresh")
        activity.repeats = true
        activity.schedule { done in done(.finished) }
    }
}
#endif
