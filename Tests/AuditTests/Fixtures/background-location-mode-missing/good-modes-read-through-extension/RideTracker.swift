// swift-format-ignore-file
import CoreLocation

/// A navigation library: background updates only in a host app that declares the location mode, read through the
/// library's own extension on `Bundle`.
final class RideTracker: CLLocationManager {
    override init() {
        super.init()
        if Bundle.main.declaredModes.contains("location") {
            allowsBackgroundLocationUpdates = true
        }
    }
}
