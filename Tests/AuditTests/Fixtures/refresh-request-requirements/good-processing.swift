// swift-format-ignore-file
import BackgroundTasks

enum Retrain {
    static func schedule() {
        let request = BGProcessingTaskRequest(identifier: "com.example.ml-retrain")
        request.requiresExternalPower = true
        request.requiresNetworkConnectivity = false
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
