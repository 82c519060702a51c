// swift-format-ignore-file
import BackgroundTasks

enum Schedule {
    static func refresh() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
        try? BGTaskScheduler.shared.submit(request)
    }

    static func retrain() {
        // The same local name, a different request type, in another function.
        let request = BGProcessingTaskRequest(identifier: "com.example.ml-retrain")
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    static func registerAll() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect: chain-never-starts
            refresh()
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.ml-retrain", using: nil) { task in // expect: chain-never-starts
            retrain()
            task.expirationHandler = { Trainer.stop() }
            Trainer.run { task.setTaskCompleted(success: $0) }
        }
    }
}
