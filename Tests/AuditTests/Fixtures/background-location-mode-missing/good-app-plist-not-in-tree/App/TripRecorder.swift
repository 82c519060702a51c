// swift-format-ignore-file
import CoreLocation

final class TripRecorder: NSObject, CLLocationManagerDelegate {
    static let shared = TripRecorder()
    private let manager = CLLocationManager()

    func start() {
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        Trips.append(locations)
    }
}
