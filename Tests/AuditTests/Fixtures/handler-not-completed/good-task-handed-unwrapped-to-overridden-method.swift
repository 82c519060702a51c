// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Each job kind overrides `run(task:)`. The launch handler looks its job up and hands the task on, unwrapped: when
/// no job has the identifier the handler completes the task itself, so every path completes it.
class SyncJob {
    let identifier: String
    init(identifier: String) { self.identifier = identifier }

    func run(task: BGTask) {
        task.expirationHandler = { Uploader.cancel() }
        Uploader.start { task.setTaskCompleted(success: $0) }
    }
}

final class PhotoSyncJob: SyncJob {
    override func run(task: BGTask) {
        task.expirationHandler = { PhotoLibrary.cancelUpload() }
        PhotoLibrary.upload { task.setTaskCompleted(success: $0) }
    }
}

final class JobScheduler {
    static let shared = JobScheduler()
    private var jobs: [SyncJob] = [PhotoSyncJob(identifier: "com.example.photos.sync")]

    func registerAll() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.photos.sync", using: nil) { task in
            self.submit()
            guard let job = self.jobs.first(where: { $0.identifier == task.identifier }) else {
                task.setTaskCompleted(success: false)
                return
            }
            job.run(task: task)
        }
    }

    func submit() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.photos.sync"))
    }
}

enum Uploader {
    static func start(_ done: @escaping (Bool) -> Void) { DispatchQueue.global().async { done(true) } }
    static func cancel() {}
}

enum PhotoLibrary {
    static func upload(_ done: @escaping (Bool) -> Void) { DispatchQueue.global().async { done(true) } }
    static func cancelUpload() {}
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        JobScheduler.shared.registerAll()
        JobScheduler.shared.submit()
        return true
    }
}
