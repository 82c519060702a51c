// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        Task { @MainActor in
            await Settings.shared.load()
            BGTaskScheduler.shared.register( // expect: register-outside-launch
                forTaskWithIdentifier: "com.example.sync",
                using: nil
            ) { task in
                SyncTask.run(task)
            }
            SyncTask.schedule()
        }
        return true
    }
}

enum SyncTask {
    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }

    static func run(_ task: BGTask) {
        schedule()
        task.expirationHandler = { SyncEngine.shared.stop() }
        SyncEngine.shared.sync { ok in task.setTaskCompleted(success: ok) }
    }
}
