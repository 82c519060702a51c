// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.upload", using: nil) { task in
            guard let task = task as? BGProcessingTask else {
                task.setTaskCompleted(success: false)
                return
            }
            self.scheduleUpload()
            let work = Task {
                do {
                    try await Uploader.shared.flush()
                    task.setTaskCompleted(success: true)
                } catch is CancellationError {
                    task.setTaskCompleted(success: false)
                } catch {
                    Log.error("upload failed")
                    task.setTaskCompleted(success: false)
                }
            }
            task.expirationHandler = { work.cancel() }
        }
        scheduleUpload()
        return true
    }

    func scheduleUpload() {
        let request = BGProcessingTaskRequest(identifier: "com.example.upload")
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }
}
