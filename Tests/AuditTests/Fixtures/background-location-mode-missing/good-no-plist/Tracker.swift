// swift-format-ignore-file
import CoreLocation

// No Info.plist in the tree (a package or a partial checkout): the background modes cannot be seen.
final class Tracker {
    private let manager = CLLocationManager()

    func start() {
        manager.allowsBackgroundLocationUpdates = true
    }
}
