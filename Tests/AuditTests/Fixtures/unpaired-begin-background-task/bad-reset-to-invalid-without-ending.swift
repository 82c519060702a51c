// swift-format-ignore-file
import UIKit

/// Background time is held while a queue of uploads drains; when the queue runs dry the tick forgets the identifier
/// instead of ending the task, so neither the expiration handler nor stop(), which both read it, can end it.
final class UploadPump {
    private var pumpTask: UIBackgroundTaskIdentifier = .invalid
    private var timer: Timer?
    private var pending: [URL] = []

    func start(with files: [URL]) {
        pending = files
        pumpTask = UIApplication.shared.beginBackgroundTask(withName: "pump") { [weak self] in // expect: unpaired-begin-background-task
            self?.stop()
        }
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in self?.tick() }
    }

    private func tick() {
        if let next = pending.popLast() {
            Uploader.send(next)
        } else {
            timer?.invalidate()
            pumpTask = .invalid
        }
    }

    func stop() {
        timer?.invalidate()
        if pumpTask != .invalid {
            UIApplication.shared.endBackgroundTask(pumpTask)
            pumpTask = .invalid
        }
    }
}
