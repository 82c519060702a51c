// swift-format-ignore-file
import CoreLocation

/// The test is for the audio mode: an app without the location mode still gets background updates turned on.
final class RideTracker: CLLocationManager {
    override init() {
        super.init()
        if Bundle.main.declaredModes.contains("audio") {
            allowsBackgroundLocationUpdates = true // expect: background-location-mode-missing
        }
    }
}
