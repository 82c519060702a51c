// swift-format-ignore-file
import BackgroundTasks

/// The first request would come from the helper for entering the background, but nothing in the app calls it (the
/// scene delegate meant to was never written), so only the handler ever submits one: the chain never starts.
final class SyncScheduler: ObservableObject {
    static let shared = SyncScheduler()
    private let identifier = "com.example.sync"

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in // expect: chain-never-starts
            self.schedule()
            task.expirationHandler = { Store.cancelSync() }
            Store.sync { task.setTaskCompleted(success: $0) }
        }
    }

    func scheduleOnBackground() {
        schedule()
    }

    private func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
        try? BGTaskScheduler.shared.submit(request)
    }
}
