// swift-format-ignore-file
import CoreLocation
import UIKit

/// A location update begins a task only when none is held, so an update that arrives before the upload finishes
/// reuses the task already running, which the upload's callback ends.
final class TripRecorder: NSObject, CLLocationManagerDelegate {
    private var uploadTask: UIBackgroundTaskIdentifier = .invalid
    private let uploader = PointUploader()

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        let points = locations.map { location -> TripPoint in
            return TripPoint(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
        }
        if UIApplication.shared.applicationState == .background, uploadTask == .invalid {
            uploadTask = UIApplication.shared.beginBackgroundTask {
                UIApplication.shared.endBackgroundTask(self.uploadTask)
                self.uploadTask = .invalid
            }
        }
        uploader.send(points) { [weak self] in
            guard let self, self.uploadTask != .invalid else { return }
            UIApplication.shared.endBackgroundTask(self.uploadTask)
            self.uploadTask = .invalid
        }
    }
}

struct TripPoint {
    var latitude: Double
    var longitude: Double
}

final class PointUploader {
    private var pending: [TripPoint] = []

    func send(_ points: [TripPoint], done: @escaping () -> Void) {
        pending += points
        done()
    }
}
