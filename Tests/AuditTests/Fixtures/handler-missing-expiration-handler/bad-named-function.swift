// swift-format-ignore-file
import BackgroundTasks
import UIKit

// The handler is a function passed by name: the finding belongs in that function, not at the registration.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.photos", using: nil, launchHandler: handlePhotoUpload)
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) { schedulePhotoUpload() }

    func handlePhotoUpload(_ task: BGTask) { // expect: handler-missing-expiration-handler
        schedulePhotoUpload()
        PhotoUploader.shared.uploadPending { uploaded in
            task.setTaskCompleted(success: uploaded)
        }
    }

    func schedulePhotoUpload() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.photos"))
    }
}
