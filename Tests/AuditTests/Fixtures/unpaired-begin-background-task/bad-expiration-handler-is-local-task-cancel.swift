// swift-format-ignore-file
import UIKit

/// The expiration handler is the work's own `cancel`: when time runs out it only asks the work to stop, and the task
/// is ended by the `defer` once the cancelled work has returned, after the handler: too late.
enum Exporter {
    @MainActor
    static func exportInBackground(_ work: @escaping @Sendable () async throws -> Void) async throws {
        let job = Task(operation: work)
        let taskID = UIApplication.shared.beginBackgroundTask(withName: "export", expirationHandler: job.cancel) // expect: unpaired-begin-background-task
        defer { UIApplication.shared.endBackgroundTask(taskID) }
        try await job.value
    }
}
