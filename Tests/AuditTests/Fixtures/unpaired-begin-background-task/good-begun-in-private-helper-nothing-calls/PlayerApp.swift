// swift-format-ignore-file
import SwiftUI
import UIKit

/// A private helper that begins a task and drops it, left behind when playback moved to the audio session: nothing
/// calls it, so the task it would leak is never begun.
@main
struct PlayerApp: App {
    var body: some Scene {
        WindowGroup { Text("Player") }
    }

    private func keepPlaying() {
        var task: UIBackgroundTaskIdentifier = .invalid
        task = UIApplication.shared.beginBackgroundTask {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }
}
