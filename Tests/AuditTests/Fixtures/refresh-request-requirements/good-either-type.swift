// swift-format-ignore-file
import BackgroundTasks

enum Jobs {
    static func schedule(_ identifier: String, heavy: Bool) {
        var request: BGTaskRequest
        if heavy {
            request = BGProcessingTaskRequest(identifier: identifier)
        } else {
            request = BGAppRefreshTaskRequest(identifier: identifier)
        }
        // Applies only when the request is a processing request, which is the intent.
        (request as? BGProcessingTaskRequest)?.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.jobs", using: nil) { task in
            schedule("com.example.jobs", heavy: true)
            task.expirationHandler = { Worker.stop() }
            Worker.run { task.setTaskCompleted(success: $0) }
        }
        schedule("com.example.jobs", heavy: false)
    }
}
