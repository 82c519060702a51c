// swift-format-ignore-file
import UIKit

// The expiration handler forgets the identifier before handing it to endBackgroundTask, which is then given `.invalid`:
// when time runs out the task is still open.
final class UploadClient {
    func send(_ request: URLRequest, session: URLSession) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "upload") { // expect: unpaired-begin-background-task
            taskID = .invalid
            UIApplication.shared.endBackgroundTask(taskID)
        }
        session.dataTask(with: request) { _, _, _ in
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }.resume()
    }
}
