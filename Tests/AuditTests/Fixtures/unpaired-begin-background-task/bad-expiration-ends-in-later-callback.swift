// swift-format-ignore-file
import UIKit
import CoreLocation

/// The expiration handler only asks for a new position; the task is ended when the position arrives, in a callback
/// the locator keeps and calls from the location delegate, long after the handler has returned.
final class Locator: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private var pending: ((CLLocation) -> Void)?

    func requestPosition(listener: @escaping (CLLocation) -> Void) {
        pending = listener
        manager.delegate = self
        manager.requestLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        if let last = locations.last { pending?(last) }
    }
}

final class Tracker {
    private let locator = Locator()
    private var task: UIBackgroundTaskIdentifier = .invalid

    func startBackground() {
        task = UIApplication.shared.beginBackgroundTask(withName: "track") { [weak self] in // expect: unpaired-begin-background-task
            self?.refresh()
        }
        refresh()
    }

    private func refresh() {
        locator.requestPosition { [weak self] location in
            self?.deliver(location)
        }
    }

    private func deliver(_ location: CLLocation) {
        if task != .invalid {
            UIApplication.shared.endBackgroundTask(task)
            task = .invalid
        }
    }
}
