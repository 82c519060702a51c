// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// A helper whose name says nothing: what it does (cancel the queue) is what counts.
final class MailSync {
    static let shared = MailSync()
    private let queue = OperationQueue()

    func note(_ message: String) {
        print("mail sync: \(message)")
        queue.cancelAllOperations()
    }

    func run(completion: @escaping (Bool) -> Void) {
        queue.addOperation { completion(true) }
    }
}

enum MailRefresh {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.mail", using: nil) { task in
            schedule()
            task.expirationHandler = {
                MailSync.shared.note("out of time")
            }
            MailSync.shared.run { task.setTaskCompleted(success: $0) }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.mail"))
    }
}
