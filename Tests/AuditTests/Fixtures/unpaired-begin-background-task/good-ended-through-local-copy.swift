// swift-format-ignore-file
import UIKit

/// The task is kept in an optional property and ended through a copy bound by `guard let`, cleared first so that
/// the expiration handler and the normal path end it once between them.
final class NoteExporter {
    private var exportTask: UIBackgroundTaskIdentifier?
    private let queue = OperationQueue()

    func export(_ notes: [String]) {
        exportTask = UIApplication.shared.beginBackgroundTask(withName: "export") { [weak self] in
            self?.queue.cancelAllOperations()
            self?.finishExport()
        }
        queue.addOperation { [weak self] in
            NoteArchive.write(notes)
            self?.finishExport()
        }
    }

    private func finishExport() {
        guard let task = exportTask else { return }
        exportTask = nil
        UIApplication.shared.endBackgroundTask(task)
    }
}

final class ThumbnailCache {
    private var purgeTask: UIBackgroundTaskIdentifier = .invalid

    func purge() {
        purgeTask = UIApplication.shared.beginBackgroundTask { [weak self] in self?.stopPurge() }
        DispatchQueue.global().async { [weak self] in
            Thumbnails.removeStale()
            self?.stopPurge()
        }
    }

    private func stopPurge() {
        if let running = self.purgeTask, running != .invalid {
            UIApplication.shared.endBackgroundTask(running)
        }
        purgeTask = .invalid
    }
}
