// swift-format-ignore-file
import BackgroundTasks

/// A file the committed project does not list, which is no copy of another: the author's own project may build it
/// (the committed one is often behind), so it is audited, and the registration made second is reported.
final class LegacySync {
    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: SyncManager.identifier, using: nil) { task in
            SyncManager.shared.schedule()
            task.expirationHandler = { Sync.cancel() }
            Sync.run { task.setTaskCompleted(success: $0) }
        }
    }
}
