// swift-format-ignore-file
import CoreLocation
import Foundation

/// A library: it asks for background updates only in an app whose Info.plist declares the location mode.
final class GeofenceMonitor: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()

    func configure() {
        manager.delegate = self
        if let modes = Bundle.main.infoDictionary?["UIBackgroundModes"] as? [String], modes.contains("location") {
            manager.allowsBackgroundLocationUpdates = true
        }
        manager.startMonitoringSignificantLocationChanges()
    }
}
