// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The async body sets an expiration handler that stops the compile, and completes the task in a `defer` alone: when
/// time runs out the compile throws, the body resumes, and the `defer` completes the task, once.
final class NightlyCompile: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.compile", using: nil) { task in
            Task { await self.compile(task as! BGAppRefreshTask) }
        }
        schedule()
        return true
    }

    private func compile(_ task: BGAppRefreshTask) async {
        schedule()
        task.expirationHandler = {
            Compiler.shared.stop()
        }
        var succeeded = false
        defer { task.setTaskCompleted(success: succeeded) }
        do {
            try await Compiler.shared.compileYesterday()
            succeeded = true
        } catch {
            print("compile failed")
        }
    }

    private func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.compile")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
        try? BGTaskScheduler.shared.submit(request)
    }
}

final class Compiler: @unchecked Sendable {
    static let shared = Compiler()
    func compileYesterday() async throws {}
    func stop() {}
}
