// swift-format-ignore-file
import UIKit

/// The reporter quits after writing, but leaves early when there is no report, with the task still held.
final class CrashReporter {
    func flushAndQuit() {
        var writeTask = UIBackgroundTaskIdentifier.invalid
        writeTask = UIApplication.shared.beginBackgroundTask(withName: "crash-report") {
            UIApplication.shared.endBackgroundTask(writeTask)
            writeTask = .invalid
        }
        guard let report = Reports.pending() else { return } // expect: unpaired-begin-background-task
        Reports.write(report)
        exit(EXIT_FAILURE)
    }
}
