// swift-format-ignore-file
import BackgroundTasks

/// Two `refresh` functions: only the one that takes a closure can be the one called with a trailing closure.
final class Catalog {
    static let shared = Catalog()
    private var isRefreshing = false

    func refresh() { refresh(completion: nil) }

    func refresh(completion: ((Bool) -> Void)? = nil) {
        guard !isRefreshing else { return }
        isRefreshing = true
        Server.fetchCatalog { result in
            self.isRefreshing = false
            completion?(result)
        }
    }
}

enum CatalogRefresh {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.catalog", using: nil) { task in
            schedule()
            task.expirationHandler = { Server.cancelAll() }
            Catalog.shared.refresh { success in // expect: handler-not-completed
                task.setTaskCompleted(success: success)
            }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.catalog"))
    }
}
