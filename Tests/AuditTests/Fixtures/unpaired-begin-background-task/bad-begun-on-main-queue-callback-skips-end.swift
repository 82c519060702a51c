// swift-format-ignore-file
import UIKit

/// The task is begun on the main queue, later, and ended by a local closure; but the send's callback leaves on an
/// error without calling it, so the task runs until its expiration handler ends it.
final class ReceiptSender {
    private let session = URLSession.shared

    func send(_ receipt: Data, to url: URL) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        DispatchQueue.main.async {
            taskID = UIApplication.shared.beginBackgroundTask(withName: "send-receipt") {
                UIApplication.shared.endBackgroundTask(taskID)
                taskID = .invalid
            }
        }
        let finish: () -> Void = {
            guard taskID != .invalid else { return }
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        session.uploadTask(with: request, from: receipt) { _, _, error in
            if error != nil {
                return // expect: unpaired-begin-background-task
            }
            finish()
        }.resume()
    }
}
