// swift-format-ignore-file
import BackgroundTasks

/// The first request comes from the helper the app's button is given by name: the sources never call it, but a tap
/// does, so the chain starts.
final class SyncScheduler: ObservableObject {
    static let shared = SyncScheduler()
    private let identifier = "com.example.sync"

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            self.schedule()
            task.expirationHandler = { Store.cancelSync() }
            Store.sync { task.setTaskCompleted(success: $0) }
        }
    }

    func scheduleNow() {
        schedule()
    }

    private func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
        try? BGTaskScheduler.shared.submit(request)
    }
}
