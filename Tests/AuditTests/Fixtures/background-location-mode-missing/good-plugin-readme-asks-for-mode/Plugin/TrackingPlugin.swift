// swift-format-ignore-file
import CoreLocation

/// A plugin the host app embeds, whose README tells the app to turn on the `location` background mode (the
/// plugin's tree holds only the framework's and its tests' plists).
public final class TrackingPlugin: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    public func startTracking() {
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }
}
