// swift-format-ignore-file
import UIKit

/// Each background fetch makes a new downloader, whose own property holds the task it begins and whose callback
/// ends it: no call overwrites a task another call began.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    private var downloader: FeedDownloader?

    func application(
        _ application: UIApplication,
        performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        let downloader = FeedDownloader()
        self.downloader = downloader
        downloader.start { changed in completionHandler(changed ? .newData : .noData) }
    }
}

final class FeedDownloader {
    private var task: UIBackgroundTaskIdentifier = .invalid

    func start(done: @escaping (Bool) -> Void) {
        task = UIApplication.shared.beginBackgroundTask { [weak self] in self?.finish() }
        URLSession.shared.dataTask(with: URL(string: "https://example.com/feed")!) { [weak self] data, _, _ in
            self?.finish()
            done(data != nil)
        }.resume()
    }

    private func finish() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}
