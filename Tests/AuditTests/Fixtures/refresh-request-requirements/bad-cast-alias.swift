// swift-format-ignore-file
import BackgroundTasks

enum Retrain {
    static func schedule() {
        let request: BGTaskRequest = BGAppRefreshTaskRequest(identifier: "com.example.ml-retrain")
        if let processing = request as? BGProcessingTaskRequest {
            processing.requiresExternalPower = true // expect: refresh-request-requirements
        }
        try? BGTaskScheduler.shared.submit(request)
    }

    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.ml-retrain", using: nil) { task in // expect: chain-never-starts
            schedule()
            task.expirationHandler = { Trainer.stop() }
            Trainer.run { task.setTaskCompleted(success: $0) }
        }
    }
}
