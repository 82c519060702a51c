// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The app registers its refresh with SwiftUI's modifier, and its digest through a helper that registers whatever
/// identifier it is given: the helper is called, so what it registers cannot be told, and no entry is reported.
@main
struct ReaderApp: App {
    var body: some Scene {
        WindowGroup { ContentView() }
            .backgroundTask(.appRefresh("com.example.reader.refresh")) {
                await Articles.refresh()
                await Articles.scheduleNext()
            }
            .refreshing(Articles.digestIdentifier) {
                await Articles.refresh()
            }
    }
}

extension Scene {
    func refreshing(_ identifier: String, action: @Sendable @escaping () async -> Void) -> some Scene {
        self.backgroundTask(.appRefresh(identifier), action: action)
    }
}

enum Articles {
    static var digestIdentifier: String { UserDefaults.standard.string(forKey: "digest") ?? "" }

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
