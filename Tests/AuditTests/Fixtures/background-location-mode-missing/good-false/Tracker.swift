// swift-format-ignore-file
import CoreLocation

final class Tracker {
    private let manager = CLLocationManager()

    func stop() {
        manager.allowsBackgroundLocationUpdates = false
        manager.stopUpdatingLocation()
        // manager.allowsBackgroundLocationUpdates = true
        let hint = "set allowsBackgroundLocationUpdates = true only with the location mode"
        print(hint)
    }
}
