// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The only submit is in a method no Swift code calls by name, but a notification observer names it by selector:
/// every move to the background submits the request, so the task is submitted.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let indexer = Indexer()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.reindex", using: nil) { task in
            task.expirationHandler = { self.indexer.cancel() }
            self.indexer.rebuild { task.setTaskCompleted(success: $0) }
        }
        indexer.observe()
        return true
    }
}

final class Indexer: NSObject {
    func observe() {
        NotificationCenter.default.addObserver(
            self, selector: #selector(bookReindex), name: UIApplication.didEnterBackgroundNotification, object: nil)
    }

    @objc private func bookReindex() {
        let request = BGProcessingTaskRequest(identifier: "com.example.reindex")
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func rebuild(_ done: @escaping (Bool) -> Void) { done(true) }
    func cancel() {}
}
