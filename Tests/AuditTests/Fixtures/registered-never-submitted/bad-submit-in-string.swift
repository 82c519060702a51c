// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static let debugHelp = """
        To run the task now, pause in the debugger after:
            try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
        """

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect: registered-never-submitted
            task.expirationHandler = { Feed.cancel() }
            self.reschedule()
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        print(Self.debugHelp)
        return true
    }

    func reschedule() {
        let code = #"BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))"#
        print("would run: \(code)")
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.other")) // expect: submitted-never-registered
    }
}
