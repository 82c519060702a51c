// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

// iOS 26: a continued processing task starts from a user action and is registered per request,
// just before it is submitted; the launch rule does not apply to it.
struct ExportView: View {
    let exportID = "com.example.export.\(UUID().uuidString)"

    var body: some View {
        Button("Export") {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: exportID, using: nil) { task in
                guard let task = task as? BGContinuedProcessingTask else {
                    task.setTaskCompleted(success: false)
                    return
                }
                task.expirationHandler = { Exporter.shared.cancel() }
                Exporter.shared.run(progress: task.progress) { task.setTaskCompleted(success: $0) }
            }
            let request = BGContinuedProcessingTaskRequest(identifier: exportID, title: "Export", subtitle: "Preparing")
            try? BGTaskScheduler.shared.submit(request)
        }
    }
}
