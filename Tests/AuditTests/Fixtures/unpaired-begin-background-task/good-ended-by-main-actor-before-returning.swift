// swift-format-ignore-file
import CoreLocation
import UIKit

/// A class of the main actor keeps each location in a background task it ends before returning, with nothing that
/// waits between: the main thread is busy until the end, so the expiration handler, which runs on it, cannot end the
/// task first.
@MainActor
final class TrackStore: NSObject {
    private final class Handle { var id = UIBackgroundTaskIdentifier.invalid }

    func store(_ location: CLLocation) {
        let task = Handle()
        task.id = UIApplication.shared.beginBackgroundTask {
            UIApplication.shared.endBackgroundTask(task.id)
        }
        Database.shared.insert(location)
        UIApplication.shared.endBackgroundTask(task.id)
    }
}
