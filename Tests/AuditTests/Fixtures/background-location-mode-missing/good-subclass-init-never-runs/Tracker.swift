// swift-format-ignore-file
import CoreLocation
import SwiftUI

/// The subclass turns on background updates in its private initializer, but its shared instance is made of the
/// superclass (`CLLocationManager()`), and nothing else may call the initializer: it never runs.
final class TrackManager: CLLocationManager {
    static let shared = CLLocationManager()

    private override init() {
        super.init()
        allowsBackgroundLocationUpdates = true
        pausesLocationUpdatesAutomatically = false
    }
}

@main
struct TrackerApp: App {
    var body: some Scene {
        WindowGroup {
            Text("Tracks").onAppear { TrackManager.shared.requestWhenInUseAuthorization() }
        }
    }
}
