// swift-format-ignore-file
import BackgroundTasks
import UIKit

// A once-per-process flag around launch-only work is harmless: launch happens once per process.
// The handler submits its successor itself.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static var didStartChain = false

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            let next = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
            next.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
            try? BGTaskScheduler.shared.submit(next)
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
        startChain()
        return true
    }

    private func startChain() {
        guard !Self.didStartChain else { return }
        Self.didStartChain = true
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }
}
