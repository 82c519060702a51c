// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        // A scene connects after application(_:didFinishLaunchingWithOptions:) has returned.
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: .main) { task in // expect: register-outside-launch
            Feed.refresh(task)
        }
        Feed.schedule()
    }
}

enum Feed {
    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }

    static func refresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { FeedLoader.shared.cancel() }
        FeedLoader.shared.load { task.setTaskCompleted(success: $0) }
    }
}
