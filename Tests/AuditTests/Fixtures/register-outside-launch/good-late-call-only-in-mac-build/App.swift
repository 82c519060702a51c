// swift-format-ignore-file
import SwiftUI

/// The iOS build registers at launch; only the Mac build (never an iPhone's) registers its own scheduler later, in a
/// `Task`, through a function of the same name.
@main
struct TidesApp: App {
    init() {
        #if os(iOS)
        RefreshManager.register()
        #endif

        #if os(macOS)
        Task { @MainActor in
            ActivityScheduler.register()
        }
        #endif
    }

    var body: some Scene {
        WindowGroup { Text("Tides") }
    }
}
