// swift-format-ignore-file
import BackgroundTasks
import UIKit

// As in Apple's sample: the cleaning task is submitted each time the app goes to the background,
// so its handler does not submit a successor.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.db_cleaning", using: nil) { task in
            self.handleDatabaseCleaning(task: task as! BGProcessingTask)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleDatabaseCleaningIfNeeded()
    }

    func scheduleDatabaseCleaningIfNeeded() {
        let lastCleanDate = PersistentContainer.shared.lastCleaned ?? .distantPast
        let now = Date()
        let oneWeek = TimeInterval(7 * 24 * 60 * 60)
        guard now > (lastCleanDate + oneWeek) else { return }
        let request = BGProcessingTaskRequest(identifier: "com.example.db_cleaning")
        request.requiresNetworkConnectivity = false
        request.requiresExternalPower = true
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule database cleaning: \(error)")
        }
    }

    func handleDatabaseCleaning(task: BGProcessingTask) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let context = PersistentContainer.shared.newBackgroundContext()
        let cleanDatabaseOperation = DeleteFeedEntriesOperation(context: context, before: Date())
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
        cleanDatabaseOperation.completionBlock = {
            let success = !cleanDatabaseOperation.isCancelled
            if success {
                PersistentContainer.shared.lastCleaned = Date()
            }
            task.setTaskCompleted(success: success)
        }
        queue.addOperation(cleanDatabaseOperation)
    }
}
