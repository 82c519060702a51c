// swift-format-ignore-file
import CoreLocation
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        true
    }
}

/// Left behind: nothing makes this manager. Core Location calls a delegate that code made and handed over, never one
/// it would make itself, so the begin below never runs.
final class LegacyLocationManager: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        let task = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
        Uploader.shared.send(locations) { _ in }
        _ = task
    }
}
