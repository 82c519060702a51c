// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.index", using: nil) { task in
            Task { await self.index(task) }
        }
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.index"))
    }

    func index(_ task: BGTask) async {
        var success = false
        defer { task.setTaskCompleted(success: success) }
        schedule()
        let work = Task { try await SearchIndex.shared.rebuild() }
        task.expirationHandler = { work.cancel() }
        guard await SearchIndex.shared.needsRebuild else { return }
        success = (try? await work.value) != nil
    }
}
