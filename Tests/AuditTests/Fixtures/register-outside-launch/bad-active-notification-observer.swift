// swift-format-ignore-file
import BackgroundTasks
import Combine
import UIKit

/// The watcher registers its task from its observer of didBecomeActiveNotification, which UIKit posts after
/// launch has finished (and again on every return to the foreground).
final class ChannelWatcher {
    static let shared = ChannelWatcher()
    private var observers = Set<AnyCancellable>()

    private init() {
        NotificationCenter.default.publisher(for: UIApplication.didBecomeActiveNotification).sink { _ in
            self.registerTask()
        }.store(in: &observers)
        NotificationCenter.default.publisher(for: UIApplication.didEnterBackgroundNotification).sink { _ in
            self.scheduleTask()
        }.store(in: &observers)
    }

    func prepare() {}

    private func registerTask() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.watch", using: .main) { task in // expect: register-outside-launch
            self.scheduleTask()
            task.expirationHandler = { Channels.shared.stopWatching() }
            Channels.shared.watch { task.setTaskCompleted(success: $0) }
        }
    }

    private func scheduleTask() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.watch"))
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        ChannelWatcher.shared.prepare()
        return true
    }
}
