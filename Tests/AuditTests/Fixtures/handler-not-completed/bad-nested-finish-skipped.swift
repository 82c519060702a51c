// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The detection's nested `finish` calls the completion, but an empty download returns without calling it.
final class ExposureCheck {
    static let shared = ExposureCheck()

    func detect(completion: @escaping (Bool) -> Void) {
        func finish(_ found: Bool) {
            Store.shared.lastCheck = Date()
            completion(found)
        }
        KeyServer.download { urls in
            guard !urls.isEmpty else { return }
            Matcher.match(urls) { finish($0) }
        }
    }

    func upload(_ keys: [Key], completion: @escaping (Bool) -> Void) {
        func finish(_ sent: Bool) {
            Store.shared.lastUpload = Date()
            completion(sent)
        }
        KeyServer.upload(keys) { finish($0) }
    }
}

enum ExposureTask {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.exposure", using: nil) { task in
            schedule()
            task.expirationHandler = { KeyServer.cancelAll() }
            ExposureCheck.shared.detect { task.setTaskCompleted(success: $0) } // expect: handler-not-completed
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.exposure"))
    }
}
