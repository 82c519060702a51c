// swift-format-ignore-file
import CoreLocation
import UIKit

/// Each location update keeps the task it held in a local, resets the property, begins the next task and only then
/// ends the one it kept: no task is dropped.
final class RouteRecorder: NSObject, CLLocationManagerDelegate {
    private var locationTask = UIBackgroundTaskIdentifier.invalid
    private let manager = CLLocationManager()

    override init() {
        super.init()
        manager.delegate = self
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        defer {
            var previous = UIBackgroundTaskIdentifier.invalid
            if locationTask != .invalid {
                previous = locationTask
                locationTask = .invalid
            }
            locationTask = UIApplication.shared.beginBackgroundTask {
                UIApplication.shared.endBackgroundTask(self.locationTask)
                self.locationTask = .invalid
            }
            if previous != .invalid {
                UIApplication.shared.endBackgroundTask(previous)
            }
        }
        save(locations)
    }

    func stop() {
        manager.stopUpdatingLocation()
        UIApplication.shared.endBackgroundTask(locationTask)
        locationTask = .invalid
    }

    private func save(_ locations: [CLLocation]) {}
}
