// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Two tasks registered at launch. The archive task's only submit is in an `Archiver` method that nothing calls — not
/// the launch, not a scene callback, not the archive handler itself — so the archive task never runs. The cleanup task
/// is submitted at launch and by its handler.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let archiver = Archiver()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
            self.archiver.scheduleCleanup()
            task.expirationHandler = { self.archiver.cancel() }
            self.archiver.clean { task.setTaskCompleted(success: $0) }
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.archive", using: nil) { task in // expect: registered-never-submitted
            task.expirationHandler = { self.archiver.cancel() }
            self.archiver.archive { task.setTaskCompleted(success: $0) }
        }
        archiver.scheduleCleanup()
        return true
    }
}

final class Archiver {
    func scheduleCleanup() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.cleanup")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 6 * 3600)
        try? BGTaskScheduler.shared.submit(request)
    }

    func scheduleArchive() {
        let request = BGProcessingTaskRequest(identifier: "com.example.archive")
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func clean(_ done: @escaping (Bool) -> Void) { done(true) }
    func archive(_ done: @escaping (Bool) -> Void) { done(true) }
    func cancel() {}
}
