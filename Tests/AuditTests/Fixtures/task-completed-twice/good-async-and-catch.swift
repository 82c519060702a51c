// swift-format-ignore-file
import BackgroundTasks

enum Indexer {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.index", using: nil) { task in
            schedule()
            let work = Task {
                do {
                    try await SearchIndex.rebuild()
                    task.setTaskCompleted(success: true)
                } catch {
                    task.setTaskCompleted(success: false)
                }
            }
            task.expirationHandler = { work.cancel() }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.index"))
    }
}
