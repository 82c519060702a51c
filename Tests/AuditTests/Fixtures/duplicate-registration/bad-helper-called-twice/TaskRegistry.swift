// swift-format-ignore-file
import BackgroundTasks

enum TaskRegistry {
    static func install(_ identifier: String) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            Worker.run(task)
        }
    }
}

enum Worker {
    static func schedule(_ identifier: String) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier))
    }

    static func run(_ task: BGTask) {
        schedule(task.identifier)
        task.expirationHandler = { Jobs.cancel() }
        Jobs.run { task.setTaskCompleted(success: $0) }
    }
}
