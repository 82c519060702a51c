// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The task's identifier is the type's own constant, named through `Self`: it must be permitted.
final class SyncTask {
    static let identifier = "com.example.sync.nightly"

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in // expect: identifier-not-permitted
            self.schedule()
            task.expirationHandler = { Store.shared.cancelSync() }
            Store.shared.sync { task.setTaskCompleted(success: $0) }
        }
    }

    func schedule() {
        let request = BGProcessingTaskRequest(identifier: Self.identifier)
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }
}
