// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

// A continued processing task runs once for the user's action; it has no successor to schedule.
struct ImportView: View {
    var body: some View {
        Button("Import archive") {
            let identifier = "com.example.import.archive"
            BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                guard let task = task as? BGContinuedProcessingTask else { return task.setTaskCompleted(success: false) }
                task.expirationHandler = { Importer.shared.cancel() }
                Importer.shared.run(progress: task.progress) { task.setTaskCompleted(success: $0) }
            }
            try? BGTaskScheduler.shared.submit(
                BGContinuedProcessingTaskRequest(identifier: identifier, title: "Import", subtitle: "Archive"))
        }
    }
}
