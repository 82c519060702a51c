// swift-format-ignore-file
import UIKit

/// A debugging aid compiled only for the simulator keeps the app alive and never ends its task; a device build has
/// none of it, and its own task is ended by the upload.
final class Uploader {
    private var task: UIBackgroundTaskIdentifier = .invalid

    func start() {
        #if targetEnvironment(simulator)
        _ = UIApplication.shared.beginBackgroundTask(withName: "debug-keep-alive", expirationHandler: nil)
        #else
        task = UIApplication.shared.beginBackgroundTask(withName: "upload") { [weak self] in
            self?.finish()
        }
        #endif
        Transfer.send { [weak self] in self?.finish() }
    }

    private func finish() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}
