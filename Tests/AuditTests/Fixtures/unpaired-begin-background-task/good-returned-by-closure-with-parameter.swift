// swift-format-ignore-file
import UIKit

/// A replaceable provider (tests swap it): its one-expression body, after the closure's parameter, returns the
/// identifier; the player keeps it and ends it when the next track starts, or when time runs out.
@MainActor
final class QueuePlayer {
    var beginTask: (@escaping () -> Void) -> UIBackgroundTaskIdentifier = { handler in
        UIApplication.shared.beginBackgroundTask(withName: "queue-advance", expirationHandler: handler)
    }
    private var advanceTask = UIBackgroundTaskIdentifier.invalid

    func trackDidEnd() {
        endAdvanceTask()
        advanceTask = beginTask { [weak self] in
            self?.endAdvanceTask()
        }
        Playlist.loadNext()
    }

    func trackDidStart() {
        endAdvanceTask()
    }

    private func endAdvanceTask() {
        guard advanceTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(advanceTask)
        advanceTask = .invalid
    }
}
