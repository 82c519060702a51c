// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

// The manager registers in its initializer. `registerBackgroundTasks()`, a requirement of the sources' own protocol,
// registers the same identifier again, but nothing in the app calls it (only the unit tests did): its registration
// never runs, so nothing is registered twice.
protocol TaskManaging: AnyObject {
    func registerBackgroundTasks() -> Void
    func scheduleCleanup()
}

final class TaskManager: ObservableObject, TaskManaging {
    init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
            self.cleanUp(task as! BGProcessingTask)
        }
    }

    func registerBackgroundTasks() {
        registerCleanup()
    }

    private func registerCleanup() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
            self.cleanUp(task as! BGProcessingTask)
        }
    }

    func scheduleCleanup() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.cleanup"))
    }

    private func cleanUp(_ task: BGProcessingTask) {
        let work = Task {
            await Store.shared.removeExpired()
            task.setTaskCompleted(success: !Task.isCancelled)
        }
        task.expirationHandler = { work.cancel() }
    }
}

@main
struct CleanerApp: App {
    @StateObject private var manager = TaskManager()

    var body: some Scene {
        WindowGroup {
            ContentView().onAppear { manager.scheduleCleanup() }
        }
    }
}
