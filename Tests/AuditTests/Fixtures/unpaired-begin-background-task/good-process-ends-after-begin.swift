// swift-format-ignore-file
import UIKit

/// A crash reporter that holds time to write the pending report and then quits: every path after the begin ends the
/// process (a trap when there is no report, `exit` after writing it), and the task ends with it; the expiration
/// handler ends it if writing runs out of time.
final class CrashReporter {
    func flushAndQuit() {
        var writeTask = UIBackgroundTaskIdentifier.invalid
        writeTask = UIApplication.shared.beginBackgroundTask(withName: "crash-report") {
            UIApplication.shared.endBackgroundTask(writeTask)
            writeTask = .invalid
        }
        guard let report = Reports.pending() else { fatalError("no report to flush") }
        Reports.write(report)
        exit(EXIT_FAILURE)
    }

    func restartSoon() {
        var drainTask = UIBackgroundTaskIdentifier.invalid
        drainTask = UIApplication.shared.beginBackgroundTask(withName: "drain") {
            UIApplication.shared.endBackgroundTask(drainTask)
        }
        Reports.drain()
        DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
            exit(EXIT_SUCCESS)
        }
    }
}
