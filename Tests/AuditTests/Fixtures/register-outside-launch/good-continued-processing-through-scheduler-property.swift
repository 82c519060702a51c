// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// A menu action registers the cleanup and submits it at once, through a property that holds `BGTaskScheduler.shared`
/// behind the app's protocol. Only a continued-processing request names the identifier, so the late registration is
/// allowed, the request is submitted, and the handler owes no successor.
protocol TaskScheduling {
    func register(forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, launchHandler: @escaping (BGTask) -> Void) -> Bool
    func submit(_ request: BGTaskRequest) throws
}

extension BGTaskScheduler: TaskScheduling {}

final class Cleaner {
    var scheduler: any TaskScheduling = BGTaskScheduler.shared
    var registered = false

    func register() {
        guard !registered else { return }
        registered = scheduler.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
            self.clean(task)
        }
    }

    func clean(_ task: BGTask) {
        task.expirationHandler = { task.setTaskCompleted(success: false) }
        task.setTaskCompleted(success: true)
    }
}

struct MenuView: View {
    let cleaner = Cleaner()
    let scheduler: any TaskScheduling = BGTaskScheduler.shared

    var body: some View {
        Button("Clean up") {
            cleaner.register()
            let request = BGContinuedProcessingTaskRequest(identifier: "com.example.cleanup", title: "Cleanup", subtitle: "")
            try? scheduler.submit(request)
        }
    }
}
