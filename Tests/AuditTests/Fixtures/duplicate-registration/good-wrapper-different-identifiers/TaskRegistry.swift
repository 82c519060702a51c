// swift-format-ignore-file
import BackgroundTasks

enum TaskRegistry {
    static let index = "com.example.index"
    static let cleanup = "com.example.cleanup"

    static func install(_ identifier: String) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            Worker.run(task, identifier: identifier)
        }
    }
}

enum Worker {
    static func schedule(_ identifier: String) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier))
    }

    static func run(_ task: BGTask, identifier: String) {
        schedule(identifier)
        task.expirationHandler = { Jobs.cancel() }
        Jobs.run { task.setTaskCompleted(success: $0) }
    }
}
