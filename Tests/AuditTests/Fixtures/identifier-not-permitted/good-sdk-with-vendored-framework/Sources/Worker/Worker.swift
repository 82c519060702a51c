// swift-format-ignore-file
import BackgroundTasks

// An SDK the app calls at launch: the permitted list is the app's, not in this tree. The only Info.plist here is a
// vendored XCFramework's, which lists no background tasks and is no app's.
public enum Worker {
    static let identifier = "com.example.sdk.upload"

    public static func registerAtLaunch() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            schedule()
            task.setTaskCompleted(success: true)
        }
        schedule()
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier))
    }
}
