// swift-format-ignore-file
import BackgroundTasks
import UIKit

// The helper is called at launch and from the handler; once `didSchedule` is set, the handler's call
// does nothing for as long as the process lives.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static var didSchedule = false

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            self.scheduleAppRefresh()
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        scheduleAppRefresh()
        return true
    }

    func scheduleAppRefresh() {
        guard !Self.didSchedule else { return } // expect: resubmit-blocked-by-flag
        Self.didSchedule = true
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule app refresh: \(error)")
        }
    }
}
