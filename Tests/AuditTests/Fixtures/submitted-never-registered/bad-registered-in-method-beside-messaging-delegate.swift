// swift-format-ignore-file
import BackgroundTasks
import FirebaseMessaging
import UIKit

/// The delegate also conforms to Firebase's `MessagingDelegate`, whose callbacks all begin `messaging(…)`: its
/// `registerBackgroundTasks()`, which nothing calls, is none of them, so the identifier is never registered and the
/// submit fails.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        Messaging.messaging().delegate = self
        scheduleRefresh()
        return true
    }

    func registerBackgroundTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.videos", using: nil) { task in
            task.expirationHandler = {}
            task.setTaskCompleted(success: true)
        }
    }

    func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.videos") // expect: submitted-never-registered
        try? BGTaskScheduler.shared.submit(request)
    }
}

extension AppDelegate: MessagingDelegate {
    func messaging(_ messaging: Messaging, didReceiveRegistrationToken fcmToken: String?) {}
}
