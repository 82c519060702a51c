// swift-format-ignore-file
import BackgroundTasks
import Foundation

// The work is done before the handler returns: by the time time could run out the task is complete, so there
// is nothing for an expiration handler to cancel.
enum CacheTrim {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.trim", using: nil) { task in
            schedule()
            guard let directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else {
                task.setTaskCompleted(success: false)
                return
            }
            Cache.removeFiles(olderThan: 7, in: directory)
            task.setTaskCompleted(success: true)
        }
    }

    static func applicationDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.trim"))
    }
}
