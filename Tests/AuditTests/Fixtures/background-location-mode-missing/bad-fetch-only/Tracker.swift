// swift-format-ignore-file
import CoreLocation

final class Tracker: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    func start() {
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true // expect: background-location-mode-missing
        manager.startUpdatingLocation()
    }
}
