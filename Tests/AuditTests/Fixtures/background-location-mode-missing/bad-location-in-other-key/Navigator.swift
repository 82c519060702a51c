// swift-format-ignore-file
import CoreLocation

final class Navigator {
    let manager = CLLocationManager()

    func beginRoute() {
        // "location" appears in the plist, but as a usage description, not a background mode.
        self.manager.allowsBackgroundLocationUpdates = true // expect: background-location-mode-missing
        manager.startUpdatingLocation()
    }
}
