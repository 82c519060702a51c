// swift-format-ignore-file
import UIKit

/// The identifier is begun on the main queue and only logged afterwards: nothing ever ends it.
final class Uploader {
    func upload(_ data: Data) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        DispatchQueue.main.sync {
            taskID = UIApplication.shared.beginBackgroundTask(withName: "upload") { // expect: unpaired-begin-background-task
                print("upload ran out of time")
            }
        }
        print("began \(taskID.rawValue) for \(data.count) bytes")
    }
}
