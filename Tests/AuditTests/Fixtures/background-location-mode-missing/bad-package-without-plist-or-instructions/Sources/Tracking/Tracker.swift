// swift-format-ignore-file
import CoreLocation

// A package an app embeds, with no Info.plist and no word to the app about the background mode: in an app that has not
// turned it on, setting the property raises an exception.
public final class Tracker {
    private let manager = CLLocationManager()

    public init() {}

    public func start() {
        manager.allowsBackgroundLocationUpdates = true // expect: background-location-mode-missing
        manager.startUpdatingLocation()
    }
}
