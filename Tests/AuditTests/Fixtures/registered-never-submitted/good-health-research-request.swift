// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.study.upload", using: nil) { task in
            self.upload(task)
        }
        schedule()
        return true
    }

    // A health research request is a processing request for protected health data: submitting it submits the task.
    func schedule() {
        let request = BGHealthResearchTaskRequest(identifier: "com.example.study.upload")
        request.protectionTypeOfRequiredData = .completeUntilFirstUserAuthentication
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func upload(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Study.cancelUpload() }
        Study.upload { task.setTaskCompleted(success: $0) }
    }
}
