// swift-format-ignore-file
import CoreLocation

// A package an app embeds, with no Info.plist: its setup guide tells the app to turn the location background mode on.
public final class Tracker {
    private let manager = CLLocationManager()

    public init() {}

    public func start() {
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }
}
