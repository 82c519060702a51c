// swift-format-ignore-file
import UIKit

/// Hands the identifier to its caller, who ends it when the work is done; the expiration handler ends it too.
struct LongRunningWork {
    private let application = UIApplication.shared

    func begin() -> UIBackgroundTaskIdentifier {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = application.beginBackgroundTask { // expect: unpaired-begin-background-task
            self.finish(identifier)
        }
        return identifier
    }

    func finish(_ identifier: UIBackgroundTaskIdentifier) {
        application.endBackgroundTask(identifier)
    }
}

final class Exporter {
    private let work = LongRunningWork()

    func export(_ document: Document) {
        let identifier = work.begin()
        document.write { _ in
            self.work.finish(identifier)
        }
    }
}
