// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The tracker's initializer sets up its background task, and so does `start()`, which the app delegate calls at
/// launch after touching `shared` (which ran the initializer): the identifier is registered twice.
final class RouteTracker: NSObject {
    static let shared = RouteTracker()
    private let refreshIdentifier = "com.example.routes.refresh"
    private var started = false

    override init() {
        super.init()
        setUpBackgroundTask()
    }

    func start() {
        guard !started else { return }
        setUpBackgroundTask()
        started = true
        schedule()
    }

    private func setUpBackgroundTask() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshIdentifier, using: nil) { task in // expect: duplicate-registration
            self.schedule()
            task.expirationHandler = { RouteStore.cancelUpload() }
            RouteStore.upload { task.setTaskCompleted(success: $0) }
        }
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refreshIdentifier))
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        RouteTracker.shared.start()
        return true
    }
}

enum RouteStore {
    static func upload(_ done: @escaping (Bool) -> Void) { done(true) }
    static func cancelUpload() {}
}
