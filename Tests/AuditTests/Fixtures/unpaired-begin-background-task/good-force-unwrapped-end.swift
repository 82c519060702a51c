// swift-format-ignore-file
import UIKit

final class Exporter {
    private var backgroundTask: UIBackgroundTaskIdentifier?

    func export() {
        backgroundTask = UIApplication.shared.beginBackgroundTask {
            UIApplication.shared.endBackgroundTask(self.backgroundTask!)
            self.backgroundTask = nil
        }
        Archive.write { self.finish() }
    }

    private func finish() {
        guard backgroundTask != nil else { return }
        UIApplication.shared.endBackgroundTask(backgroundTask!)
        backgroundTask = nil
    }
}
