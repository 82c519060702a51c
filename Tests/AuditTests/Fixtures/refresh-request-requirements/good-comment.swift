// swift-format-ignore-file
import BackgroundTasks

enum Schedule {
    static func refresh() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
        // request.requiresExternalPower = true   — refresh requests cannot wait for power
        /* (request as? BGProcessingTaskRequest)?.requiresNetworkConnectivity = true */
        let warning = "request.requiresExternalPower = true does not compile"
        print(warning)
        try? BGTaskScheduler.shared.submit(request)
    }

    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect: chain-never-starts
            refresh()
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
    }
}
