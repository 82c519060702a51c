// swift-format-ignore-file
import BackgroundTasks
import UIKit

let digestTask = "com.example.digest"
let archiveTaskPrefix = "com.example.archive"

/// Launch submits the archive tasks, whose identifiers are built by concatenation; none of them can be the digest
/// task, which only its own handler ever submits.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: digestTask, using: nil) { task in // expect: chain-never-starts
            scheduleDigest()
            task.expirationHandler = { Digest.shared.cancel() }
            Digest.shared.build { task.setTaskCompleted(success: $0) }
        }
        for shard in 0..<2 {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: archiveTaskPrefix + ".\(shard)", using: nil) { task in
                scheduleArchive(shard)
                task.expirationHandler = { Archive.shared.cancel() }
                Archive.shared.compact(shard) { task.setTaskCompleted(success: $0) }
            }
            scheduleArchive(shard)
        }
        return true
    }
}

func scheduleDigest() {
    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: digestTask))
}

func scheduleArchive(_ shard: Int) {
    try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: archiveTaskPrefix + ".\(shard)"))
}
