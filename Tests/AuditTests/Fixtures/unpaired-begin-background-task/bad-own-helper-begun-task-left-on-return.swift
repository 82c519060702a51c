// swift-format-ignore-file
import UIKit

/// The app's own helper begins a task whose expiration handler ends it, and hands the identifier back: the caller
/// owns ending it, and its early return when the file cannot be read never does.
func startBackgroundTask() -> UIBackgroundTaskIdentifier {
    var task = UIBackgroundTaskIdentifier.invalid
    task = UIApplication.shared.beginBackgroundTask(expirationHandler: {
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    })
    return task
}

final class Uploader {
    func upload(_ url: URL, completion: @escaping (Error?) -> Void) {
        let task = startBackgroundTask()
        guard let data = try? Data(contentsOf: url) else {
            completion(UploadError.unreadable)
            return // expect: unpaired-begin-background-task
        }
        Client.send(data) { error in
            completion(error)
            UIApplication.shared.endBackgroundTask(task)
        }
    }
}
