import Testing
@testable import Audit

@Test func scratch() {
    let app = """
    import UIKit
    import BackgroundTasks

    enum TaskID {
        static let refresh = "com.example.refresh"
        static let cleanup = "com.example.cleanup"
    }

    @main
    class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication,
                         didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: TaskID.refresh, using: nil) { task in
                self.handleAppRefresh(task: task as! BGAppRefreshTask)
            }
            scheduleAppRefresh()
            return true
        }

        func scheduleAppRefresh() {
            let request = BGAppRefreshTaskRequest(identifier: TaskID.refresh)
            request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
            do {
                try BGTaskScheduler.shared.submit(request)
            } catch {
                print("Could not schedule app refresh: \\(error)")
            }
        }

        func handleAppRefresh(task: BGAppRefreshTask) {
            scheduleAppRefresh()
            let queue = OperationQueue()
            task.expirationHandler = { queue.cancelAllOperations() }
            guard let op = makeOperation() else { return }
            op.completionBlock = { task.setTaskCompleted(success: !op.isCancelled) }
            queue.addOperation(op)
        }
    }
    """
    let view = """
    import SwiftUI
    struct ContentView: View {
        var body: some View {
            Text("hi").onAppear {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: TaskID.cleanup, using: nil) { task in
                    task.setTaskCompleted(success: true)
                }
                // BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: TaskID.cleanup))
            }
        }
    }
    """
    let report = Auditor().audit(sources: [("App/AppDelegate.swift", app), ("App/ContentView.swift", view)])
    print(report.renderText())
    print(report.renderJSON())
}
