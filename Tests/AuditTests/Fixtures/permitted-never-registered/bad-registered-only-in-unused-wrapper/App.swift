// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The app registers its refresh with SwiftUI's modifier. A second permitted entry was meant for a helper that
/// registers whatever identifier it is given, but nothing ever calls the helper: that entry has no handler.
@main
struct ReaderApp: App {
    var body: some Scene {
        WindowGroup { ContentView() }
            .backgroundTask(.appRefresh("com.example.reader.refresh")) {
                await Articles.refresh()
                await Articles.scheduleNext()
            }
    }
}

extension Scene {
    func refreshing(_ identifier: String, action: @Sendable @escaping () async -> Void) -> some Scene {
        self.backgroundTask(.appRefresh(identifier), action: action)
    }
}

enum Articles {
    static func refresh() async {}

    static func scheduleNext() async {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.reader.refresh"))
    }
}

struct ContentView: View {
    var body: some View {
        Button("Schedule") { Task { await Articles.scheduleNext() } }
    }
}
