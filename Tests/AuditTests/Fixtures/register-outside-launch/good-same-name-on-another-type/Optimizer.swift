// swift-format-ignore-file
import BackgroundTasks

final class Optimizer {
    static let shared = Optimizer()

    func trimCaches() {}

    func registerBackgroundTasks() {
        Task {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.optimize", using: nil) { task in
                task.setTaskCompleted(success: true)
            }
        }
    }
}
