// swift-format-ignore-file
import BackgroundTasks

enum Jobs {
    static func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Identifiers.refresh))
    }

    static func scheduleUpload() {
        let request = BGProcessingTaskRequest(identifier: Identifiers.upload) // expect: submitted-never-registered
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }

    static func refresh(_ task: BGTask) {
        scheduleRefresh()
        task.expirationHandler = { Store.cancel() }
        Store.refresh { task.setTaskCompleted(success: $0) }
    }
}
