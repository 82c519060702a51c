// swift-format-ignore-file
import BackgroundTasks

enum TaskIdentifiers {
    static let refresh = "com.example.refresh"
}

enum Refresh {
    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: TaskIdentifiers.refresh))
    }

    static func run(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Store.cancel() }
        Store.refresh { task.setTaskCompleted(success: $0) }
    }
}
