// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The shard tasks' identifiers are built by concatenation from a constant prefix: each is "com.example.shard." and a
/// number: every entry is one of them.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static let shardPrefix = "com.example.shard"

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        for shard in 0..<2 {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.shardPrefix + ".\(shard)", using: nil) { task in
                try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: Self.shardPrefix + ".\(shard)"))
                task.expirationHandler = { Shards.cancel() }
                Shards.compact(shard) { task.setTaskCompleted(success: $0) }
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        for shard in 0..<2 {
            try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: Self.shardPrefix + ".\(shard)"))
        }
    }
}
