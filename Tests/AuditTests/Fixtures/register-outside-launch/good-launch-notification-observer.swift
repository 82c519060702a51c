// swift-format-ignore-file
import BackgroundTasks
import Combine
import UIKit

/// The watcher is made while didFinishLaunching runs and registers its task from its observer of
/// didFinishLaunchingNotification, which UIKit posts as it finishes launching.
final class ChannelWatcher {
    static let shared = ChannelWatcher()
    private var observers = Set<AnyCancellable>()

    private init() {
        NotificationCenter.default.publisher(for: UIApplication.didFinishLaunchingNotification).sink { _ in
            self.registerTask()
        }.store(in: &observers)
        NotificationCenter.default.publisher(for: UIApplication.didEnterBackgroundNotification).sink { _ in
            self.scheduleTask()
        }.store(in: &observers)
    }

    func prepare() {}

    private func registerTask() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.watch", using: .main) { task in
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
