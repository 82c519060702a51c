// swift-format-ignore-file
import CoreLocation

/// A plugin whose example app, in the same tree, does not list the `location` background mode: setting the property
/// raises an exception in that app.
public final class TrackingPlugin: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    public func startTracking() {
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true // expect: background-location-mode-missing
        manager.startUpdatingLocation()
    }
}
