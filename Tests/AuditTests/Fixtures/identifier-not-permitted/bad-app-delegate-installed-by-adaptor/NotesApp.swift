// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// A SwiftUI app that installs its delegate through the adaptor: UIKit makes `AppDelegate` at launch, and its
/// registration of an identifier the Info.plist does not list runs.
@main
struct NotesApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) var appDelegate
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
