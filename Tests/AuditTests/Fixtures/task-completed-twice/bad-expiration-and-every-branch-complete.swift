// swift-format-ignore-file
import BackgroundTasks
import Flutter
import UIKit

/// The expiration handler completes the task and stops nothing; the Dart side's reply still arrives, and every branch
/// of its callback completes the task again (the `guard let self` return is a path of its own, which never
/// completes it).
final class BackgroundFetch {
    private let channel: FlutterMethodChannel
    private var fetching = false

    init(channel: FlutterMethodChannel) {
        self.channel = channel
    }

    func registerAtLaunch() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.fetch", using: nil) { task in
            self.fetch(task)
        }
        schedule()
    }

    private func fetch(_ task: BGTask) {
        schedule()
        task.expirationHandler = {
            task.setTaskCompleted(success: false)
        }
        channel.invokeMethod("fetch", arguments: nil) { [weak self] result in
            guard let self = self else { return } // expect: handler-not-completed
            self.fetching = false
            if let error = result as? FlutterError {
                print("fetch failed: \(error.code)")
                task.setTaskCompleted(success: false) // expect: task-completed-twice
                return
            }
            let count = result as? Int ?? 0
            task.setTaskCompleted(success: count >= 0) // expect: task-completed-twice
        }
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.fetch"))
    }
}
