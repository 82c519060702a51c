// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// Each job kind overrides `run(task:)`. The launch handler looks its job up through a weakly captured scheduler and
/// hands the task on through an optional chain: when the scheduler is gone, or no job has the identifier, the call
/// is skipped and the task is never completed.
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
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.photos.sync", using: nil) { [weak self] task in
            self?.submit()
            let job = self?.jobs.first { $0.identifier == task.identifier }
            job?.run(task: task) // expect: handler-not-completed
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
