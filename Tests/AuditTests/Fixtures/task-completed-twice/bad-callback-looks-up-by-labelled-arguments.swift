// swift-format-ignore-file
import BackgroundTasks
import UIKit

/// The expiration handler completes the task and stops nothing; the fetch's callback, which looks each new comic up
/// by labelled arguments before caching its image, completes it again whichever way the fetch ends.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.comics", using: nil) { task in
            self.refresh(task as! BGAppRefreshTask)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.comics"))
    }

    func refresh(_ task: BGAppRefreshTask) {
        task.expirationHandler = {
            task.setTaskCompleted(success: false)
        }
        ComicStore.shared.fetchNew { result in
            switch result {
            case .success(let ids):
                let cache = try! ComicCache.open()
                var urls: [URL] = []
                for id in ids {
                    if let comic = cache.comic(withID: id, version: 2) {
                        urls.append(comic.imageURL)
                    }
                }
                ImageCache.prefetch(urls)
                task.setTaskCompleted(success: true) // expect: task-completed-twice
            case .failure:
                task.setTaskCompleted(success: false) // expect: task-completed-twice
            }
        }
        schedule()
    }
}
