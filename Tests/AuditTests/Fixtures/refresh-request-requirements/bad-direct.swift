// swift-format-ignore-file
import BackgroundTasks

// Does not compile, which is how some teams learn of the rule; the audit says why before the build does.
enum Retrain {
    static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.ml-retrain")
        request.requiresExternalPower = true // expect: refresh-request-requirements
        request.requiresNetworkConnectivity = false // expect: refresh-request-requirements
        request.earliestBeginDate = Date(timeIntervalSinceNow: 86400)
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
