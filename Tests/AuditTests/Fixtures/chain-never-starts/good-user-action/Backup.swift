// swift-format-ignore-file
import BackgroundTasks

enum Backup {
    static let identifier = "com.example.backup"

    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            scheduleNext()
            task.expirationHandler = { Archiver.cancel() }
            Archiver.run { task.setTaskCompleted(success: $0) }
        }
    }

    static func scheduleNext() {
        let request = BGProcessingTaskRequest(identifier: identifier)
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }
}
