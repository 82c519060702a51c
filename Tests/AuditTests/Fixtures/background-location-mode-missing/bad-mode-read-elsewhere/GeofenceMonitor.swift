// swift-format-ignore-file
import CoreLocation
import Foundation

/// The modes are read for a log line, but background updates are turned on whatever they say.
final class GeofenceMonitor: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()

    func logModes() {
        let modes = Bundle.main.infoDictionary?["UIBackgroundModes"] as? [String] ?? []
        print("background modes: \(modes)")
    }

    func configure() {
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true // expect: background-location-mode-missing
        manager.startMonitoringSignificantLocationChanges()
    }
}
