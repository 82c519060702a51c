// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// A SwiftUI app whose delegate adaptor was taken out: UIKit never makes `AppDelegate`, so its registration of an
/// identifier the Info.plist does not list never runs. The app registers its task with the scene modifier instead.
@main
struct NotesApp: App {
    // @UIApplicationDelegateAdaptor(AppDelegate.self) var appDelegate
    @Environment(\.scenePhase) private var phase

    var body: some Scene {
        WindowGroup { Text("Notes") }
            .onChange(of: phase) { _, newPhase in
                if newPhase == .background {
                    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.notes.sync"))
                }
            }
            .backgroundTask(.appRefresh("com.example.notes.sync")) {
                try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.notes.sync"))
                await NotesStore.sync()
            }
    }
}

enum NotesStore {
    static func sync() async {}
}
