// swift-format-ignore-file
import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.compact", using: nil) { task in // expect: handler-missing-expiration-handler
            self.schedule()
            // task.expirationHandler = { Database.shared.cancelCompaction() }
            /* task.expirationHandler = {
                   /* nested */ Database.shared.cancelCompaction()
               } */
            let note = "task.expirationHandler = { cancel() }"
            print(note)
            Database.shared.compact { task.setTaskCompleted(success: $0) }
        }
        schedule()
        return true
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.compact"))
    }
}
