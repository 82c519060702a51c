// swift-format-ignore-file
import BackgroundTasks

enum BackgroundWork {
    static let refreshIdentifier = "com.example.refresh"

    static func registerHandlers() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshIdentifier, using: nil) { task in // expect: register-outside-launch
            handleRefresh(task)
        }
    }

    static func scheduleRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refreshIdentifier))
    }

    static func handleRefresh(_ task: BGTask) {
        scheduleRefresh()
        task.expirationHandler = { Inbox.shared.cancelFetch() }
        Inbox.shared.fetch { task.setTaskCompleted(success: $0) }
    }
}
