// swift-format-ignore-file
import CoreLocation

/// A plugin the host app embeds, which turns background updates on; its README says nothing of the mode, but its page
/// on the app's `Info.plist` (`INFO_PLIST.md`) tells the app to list `location` in `UIBackgroundModes`.
public final class TrackingPlugin: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    public func startTracking() {
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }
}
