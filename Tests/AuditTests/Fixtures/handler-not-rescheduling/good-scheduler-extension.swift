// swift-format-ignore-file
import BackgroundTasks

extension BGTaskScheduler {
    /// The app's own spelling of a submit.
    func enqueue(_ request: BGTaskRequest) {
        do {
            try submit(request)
        } catch {
            print("could not submit \(request.identifier): \(error)")
        }
    }
}

enum Digest {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.digest", using: nil) { task in
            BGTaskScheduler.shared.enqueue(BGAppRefreshTaskRequest(identifier: "com.example.digest"))
            task.expirationHandler = { Mailbox.cancel() }
            Mailbox.digest { task.setTaskCompleted(success: $0) }
        }
    }

    static func sceneDidEnterBackground() {
        BGTaskScheduler.shared.enqueue(BGAppRefreshTaskRequest(identifier: "com.example.digest"))
    }
}
