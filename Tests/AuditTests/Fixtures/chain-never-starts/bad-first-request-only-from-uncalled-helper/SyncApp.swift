// swift-format-ignore-file
import SwiftUI

@main
struct SyncApp: App {
    init() {
        SyncScheduler.shared.register()
    }

    var body: some Scene {
        WindowGroup { Text("Sync") }
    }
}
