// swift-format-ignore-file
import CoreLocation

final class RunRecorder {
    let locationManager: CLLocationManager = {
        let manager = CLLocationManager()
        manager.allowsBackgroundLocationUpdates = true // expect: background-location-mode-missing
        manager.pausesLocationUpdatesAutomatically = false
        return manager
    }()
}
