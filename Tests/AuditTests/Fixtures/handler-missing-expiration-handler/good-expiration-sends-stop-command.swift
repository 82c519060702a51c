// swift-format-ignore-file
import BackgroundTasks
import ComposableArchitecture
import Foundation

/// The expiration handler logs, then sends the app's store a command to stop the sync (a store of a library
/// outside the sources); the store's reducer completes the task once the sync has stopped.
final class SyncTasks {
    let store: StoreOf<AppFeature>

    init(store: StoreOf<AppFeature>) { self.store = store }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.wallet-sync", using: nil) { [store] task in
            SyncTasks.schedule()
            store.send(.sync(.start(task)))
            task.expirationHandler = {
                print("wallet sync ran out of time")
                store.send(.sync(.stop))
            }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.wallet-sync"))
    }
}
