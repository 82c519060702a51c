// swift-format-ignore-file
import BackgroundTasks
import os

let logger = Logger(subsystem: "com.example", category: "refresh")

enum Refresh {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            schedule()
            task.expirationHandler = { // expect: handler-missing-expiration-handler
                logger.error("refresh expired after \(Date().timeIntervalSince1970)")
            }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }
}
