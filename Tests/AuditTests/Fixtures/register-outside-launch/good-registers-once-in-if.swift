// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

enum ProfileUpdates {
    private static var registered = false

    // Called by the App's initializer at launch, then again whenever the profiles screen appears: only the first
    // call registers.
    static func configure() {
        if !registered {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.profiles", using: nil) { task in
                update(task)
            }
            registered = true
        }
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.profiles"))
    }

    static func update(_ task: BGTask) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.profiles"))
        task.expirationHandler = { Profiles.cancel() }
        Profiles.refresh { task.setTaskCompleted(success: $0) }
    }
}

@main
struct ProfilesApp: App {
    init() {
        ProfileUpdates.configure()
    }

    var body: some Scene {
        WindowGroup { ProfilesView() }
    }
}

struct ProfilesView: View {
    var body: some View {
        List {}.onAppear { ProfileUpdates.configure() }
    }
}
