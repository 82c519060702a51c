// swift-format-ignore-file
import CoreLocation
import React

// A React Native native module: the host app's Info.plist is not in this tree, and the README never asks for the
// `location` background mode.
@objc(LocationModule)
class LocationModule: RCTEventEmitter, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    @objc func startTracking() {
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true // expect: background-location-mode-missing
        manager.startMonitoringSignificantLocationChanges()
    }

    override func supportedEvents() -> [String]! { ["location"] }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        sendEvent(withName: "location", body: ["count": locations.count])
    }
}
