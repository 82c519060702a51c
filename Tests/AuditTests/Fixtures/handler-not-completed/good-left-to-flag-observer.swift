// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// A grace period completes the task unless the app's own work is still running; then the flag's observer
/// completes it when that work clears the flag.
final class SyncWindow {
    static let shared = SyncWindow()
    private var openTask: BGTask?

    var isSyncing = false {
        didSet {
            if oldValue, !isSyncing { close() }
        }
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil, launchHandler: open(task:))
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
    }

    private func open(task: BGTask) {
        openTask = task
        schedule()
        task.expirationHandler = { [weak self] in self?.close() }
        DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
            if !self.isSyncing {
                self.close()
            }
        }
    }

    private func close() {
        guard let task = openTask else { return }
        openTask = nil
        task.setTaskCompleted(success: true)
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        SyncWindow.shared.register()
        SyncWindow.shared.schedule()
        return true
    }
}
