// swift-format-ignore-file
import BackgroundTasks

final class SyncClient {
    func sync(_ done: @escaping (Bool) -> Void) { done(true) }
    func cancel() {}
}

final class SyncRefresh: RefreshHandler {
    weak var client: SyncClient?

    func handle(_ task: BGTask) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
        guard let client = client else { return } // expect: handler-not-completed
        task.expirationHandler = { client.cancel() }
        client.sync { task.setTaskCompleted(success: $0) }
    }
}

final class FlushRefresh: RefreshHandler {
    let client = SyncClient()

    func handle(_ task: BGTask) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.flush"))
        task.expirationHandler = { self.client.cancel() }
        client.sync { task.setTaskCompleted(success: $0) }
    }
}
