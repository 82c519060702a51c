// swift-format-ignore-file
import BackgroundTasks

func registerCleanup() {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
        defer { task.setTaskCompleted(success: true) }
        scheduleCleanup()
        task.expirationHandler = { Store.shared.stopCleaning() }
        let removed = Store.shared.removeExpired()
        task.setTaskCompleted(success: removed >= 0) // expect: task-completed-twice
    }
}

func sceneDidEnterBackground(_ scene: UIScene) { scheduleCleanup() }

func scheduleCleanup() {
    try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.cleanup"))
}
