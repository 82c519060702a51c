// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The registered closure casts the task and hands it to a function that never completes it (only its expiration
/// handler does): the mistake is reported in that function, and the cast's `return` too.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.steps", using: nil) { task in
            guard let task = task as? BGProcessingTask else {
                return // expect: handler-not-completed
            }
            self.handleSteps(task: task)
        }
        scheduleSteps()
        return true
    }

    func handleSteps(task: BGProcessingTask) { // expect: handler-not-completed
        task.expirationHandler = { task.setTaskCompleted(success: false) }
        scheduleSteps()
        StepCounter.shared.send(.refresh)
    }

    func scheduleSteps() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.steps"))
    }
}
