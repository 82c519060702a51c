// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The export screen registers a continued-processing task when the user starts an export, through the app's own
/// client: such a task may be registered at any time, just before its request is submitted.
protocol ContinuedClient {
    func register(forTaskWithIdentifier identifier: String, launchHandler: @escaping (BGContinuedProcessingTask) -> Void) -> Bool
    func submit(identifier: String, title: String) throws
}

final class SystemContinuedClient: ContinuedClient {
    private var registered: Set<String> = []

    func register(forTaskWithIdentifier identifier: String, launchHandler: @escaping (BGContinuedProcessingTask) -> Void) -> Bool {
        guard !registered.contains(identifier) else { return true }
        let accepted = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: .main) { task in
            guard let continued = task as? BGContinuedProcessingTask else {
                task.setTaskCompleted(success: false)
                return
            }
            launchHandler(continued)
        }
        if accepted { registered.insert(identifier) }
        return accepted
    }

    func submit(identifier: String, title: String) throws {
        try BGTaskScheduler.shared.submit(BGContinuedProcessingTaskRequest(identifier: identifier, title: title, subtitle: ""))
    }
}

struct ExportView: View {
    let client: ContinuedClient = SystemContinuedClient()

    var body: some View {
        Button("Export") { startExport() }
    }

    func startExport() {
        let identifier = "com.example.video.export.\(UUID().uuidString)"
        _ = client.register(forTaskWithIdentifier: identifier) { task in
            task.expirationHandler = { Exporter.cancel() }
            Exporter.run { task.setTaskCompleted(success: $0) }
        }
        try? client.submit(identifier: identifier, title: "Exporting")
    }
}

enum Exporter {
    static func run(_ done: @escaping (Bool) -> Void) { done(true) }
    static func cancel() {}
}
