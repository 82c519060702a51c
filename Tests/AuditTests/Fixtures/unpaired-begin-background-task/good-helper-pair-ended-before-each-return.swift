// swift-format-ignore-file
import UIKit

/// The downloader holds a task with a pair of helpers around a download that runs in a `Task`. Each way out ends
/// it: a superseded request calls `finish()` before returning, a cancelled one returns because `cancel()` set the
/// flag, and `cancel()` has ended the task already; a gone downloader's `deinit` ends it too.
final class SegmentDownloader {
    private var transferTask: UIBackgroundTaskIdentifier = .invalid
    private var isStopped = false
    private var generation = 0

    deinit {
        endTransferTask()
    }

    func start(_ url: URL) {
        isStopped = false
        beginTransferTask()
        generation += 1
        let mine = generation
        Task { [weak self] in
            let data = try? await URLSession.shared.data(from: url)
            guard let self else { return }
            guard !self.isStopped else { return }
            guard mine == self.generation else {
                self.finish()
                return
            }
            Store.shared.save(data?.0)
            self.endTransferTask()
        }
    }

    func cancel() {
        isStopped = true
        endTransferTask()
    }

    private func finish() {
        endTransferTask()
    }

    private func beginTransferTask() {
        guard transferTask == .invalid else { return }
        transferTask = UIApplication.shared.beginBackgroundTask(withName: "segment") { [weak self] in
            self?.cancel()
        }
    }

    private func endTransferTask() {
        guard transferTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(transferTask)
        transferTask = .invalid
    }
}

final class Store {
    static let shared = Store()
    func save(_ data: Data?) {}
}
