// swift-format-ignore-file
import CoreLocation

/// A plugin the host app embeds, which turns background updates on without telling the app, in its README, to list
/// the `location` background mode; its changelog names the mode only as a past need: the app that does not list it
/// crashes here.
public final class TrackingPlugin: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    public func startTracking() {
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true // expect: background-location-mode-missing
        manager.startUpdatingLocation()
    }
}
