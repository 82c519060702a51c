// swift-format-ignore-file
import UIKit

/// The identifier is reset only where the task is ended: after the end, before it (from a copy), and in a `defer` of
/// the block that ends it.
final class ArchiveWriter {
    private var writeTask: UIBackgroundTaskIdentifier = .invalid
    private var timer: Timer?
    private var chunks: [Data] = []

    init() {
        writeTask = .invalid
    }

    func begin(with data: [Data]) {
        chunks = data
        writeTask = UIApplication.shared.beginBackgroundTask(withName: "archive") { [weak self] in
            self?.finish()
        }
        timer = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: true) { [weak self] _ in self?.step() }
    }

    private func step() {
        guard let chunk = chunks.popLast() else {
            timer?.invalidate()
            defer { writeTask = .invalid }
            UIApplication.shared.endBackgroundTask(writeTask)
            return
        }
        Archive.append(chunk)
    }

    func finish() {
        timer?.invalidate()
        let held = writeTask
        writeTask = .invalid
        UIApplication.shared.endBackgroundTask(held)
    }
}
