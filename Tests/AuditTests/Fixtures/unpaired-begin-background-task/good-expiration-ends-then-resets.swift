// swift-format-ignore-file
import UIKit

// The expiration handler ends the task, then forgets the identifier, as the normal path does.
final class UploadClient {
    func send(_ request: URLRequest, session: URLSession) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "upload") {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        session.dataTask(with: request) { _, _, _ in
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }.resume()
    }
}
