// swift-format-ignore-file
import BackgroundTasks
import UIKit

// The flag allows one automatic rebuild per process; the rebuild runs as a continued-processing task, started for
// what the user is doing and run once, never a chain the flag could stop. The refresh chain submits its next request
// on every run.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            SyncEngine.shared.scheduleRefresh()
            task.expirationHandler = { SyncEngine.shared.cancel() }
            Task {
                await SyncEngine.shared.sync()
                task.setTaskCompleted(success: true)
            }
        }
        SyncEngine.shared.scheduleRefresh()
        return true
    }
}

final class SyncEngine {
    static let shared = SyncEngine()
    private var didAttemptRebuild = false

    func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    func sync() async {
        do {
            try await Server.pull()
        } catch {
            await handleFailure(error)
        }
    }

    func cancel() {
        Server.cancelAll()
    }

    private func handleFailure(_ error: Error) async {
        guard !didAttemptRebuild else { return }
        didAttemptRebuild = true
        RebuildTask.shared.begin(title: "Rebuilding library")
    }
}

final class RebuildTask {
    static let shared = RebuildTask()

    func begin(title: String) {
        let identifier = "com.example.rebuild.\(UUID().uuidString)"
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            guard let task = task as? BGContinuedProcessingTask else {
                task.setTaskCompleted(success: false)
                return
            }
            task.expirationHandler = { Server.cancelAll() }
            Task {
                await Server.rebuild()
                task.setTaskCompleted(success: true)
            }
        }
        let request = BGContinuedProcessingTaskRequest(identifier: identifier, title: title, subtitle: "")
        try? BGTaskScheduler.shared.submit(request)
    }
}
