// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The handler completes the task before it returns, but only after waiting for the script it runs: when time is
/// up the wait goes on, and the expiration handler only logs.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.script", using: nil) { task in
            task.expirationHandler = { print("script task expired") } // expect: handler-missing-expiration-handler
            self.schedule()
            let ok = self.runScript()
            task.setTaskCompleted(success: ok)
        }
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.script"))
    }

    func runScript() -> Bool {
        let group = DispatchGroup()
        var result = false
        group.enter()
        ScriptEngine.shared.run("refresh.js") { ok in
            result = ok
            group.leave()
        }
        group.wait()
        return result
    }
}
