// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The async body sets an expiration handler that completes the task, then completes it in a `defer` and waits for
/// the compile: when time runs out during the wait, the body resumes and the `defer` completes the task again.
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
            task.setTaskCompleted(success: false)
        }
        var succeeded = false
        defer { task.setTaskCompleted(success: succeeded) } // expect: task-completed-twice
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

actor Compiler {
    static let shared = Compiler()
    func compileYesterday() async throws {}
}
