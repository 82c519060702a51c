// swift-format-ignore-file
import UIKit

/// The task is begun on the main queue, later; the function arranges its end meanwhile: a local closure that every
/// path of the send's callback calls, reading the captured identifier when it runs.
final class ReportSender {
    private let session = URLSession.shared

    func send(_ report: Data, to url: URL, done: @escaping (Bool) -> Void) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        DispatchQueue.main.async {
            taskID = UIApplication.shared.beginBackgroundTask(withName: "send-report") {
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
        session.uploadTask(with: request, from: report) { _, response, error in
            if error != nil {
                finish()
                done(false)
                return
            }
            finish()
            done((response as? HTTPURLResponse)?.statusCode == 200)
        }.resume()
    }
}
