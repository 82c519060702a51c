// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The app's own logger: it formats a line and keeps it, and touches no task.
final class DiagnosticsLog {
    static let shared = DiagnosticsLog()
    private let formatter = ISO8601DateFormatter()

    func record(_ message: String, level: Int = 0) {
        let line = "\(formatter.string(from: Date())) [\(level)] \(message)"
        Self.persist(line)
    }

    private static func persist(_ line: String) {
        print(line)
    }
}

enum InboxRefresh {
    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.inbox", using: nil) { task in
            schedule()
            task.expirationHandler = { // expect: handler-missing-expiration-handler
                DiagnosticsLog.shared.record("inbox refresh ran out of time", level: 2)
            }
            Inbox.fetch { task.setTaskCompleted(success: $0) }
        }
    }

    static func sceneDidEnterBackground() { schedule() }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.inbox"))
    }
}
