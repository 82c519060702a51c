// swift-format-ignore-file
import BackgroundTasks
import UIKit

final class Uploader {
    static let shared = Uploader()
    private var queue = OperationQueue()

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.upload", using: nil) { task in
            self.handle(task as! BGProcessingTask)
        }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.upload"))
    }

    private func handle(_ task: BGProcessingTask) {
        task.expirationHandler = { // expect: handler-missing-expiration-handler
            print("upload expired")
            DispatchQueue.main.async {
                self.queue.cancelAllOperations()
            }
        }
        let upload = BlockOperation { Files.sendPending() }
        upload.completionBlock = { task.setTaskCompleted(success: !upload.isCancelled) }
        queue.addOperation(upload)
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        Uploader.shared.register()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        Uploader.shared.schedule()
    }
}
