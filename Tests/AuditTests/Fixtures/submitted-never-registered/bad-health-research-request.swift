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

    // The second request names the survey task, for which no launch handler is registered.
    func schedule() {
        try? BGTaskScheduler.shared.submit(BGHealthResearchTaskRequest(identifier: "com.example.study.upload"))
        let request = BGHealthResearchTaskRequest(identifier: "com.example.study.survey") // expect: submitted-never-registered
        request.protectionTypeOfRequiredData = .completeUntilFirstUserAuthentication
        try? BGTaskScheduler.shared.submit(request)
    }

    func upload(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Study.cancelUpload() }
        Study.upload { task.setTaskCompleted(success: $0) }
    }
}
