// swift-format-ignore-file
import BackgroundTasks
import Combine
import UIKit

/// A callback whose `switch` completes the task in every case, beside an expiration handler that completes it too,
/// done right: the expiration handler cancels the refresh first, so its completion never comes after it.
final class EpisodeRefresher {
    private var refresh: AnyCancellable?

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.episodes", using: .main) { [unowned self] task in
            self.schedule()
            task.expirationHandler = {
                self.refresh?.cancel()
                task.setTaskCompleted(success: false)
            }
            self.refresh = Feed.shared.refresh()
                .sink(receiveCompletion: { completion in
                    switch completion {
                    case .finished: task.setTaskCompleted(success: true)
                    case .failure: task.setTaskCompleted(success: false)
                    }
                }, receiveValue: { _ in })
        }
        schedule()
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.episodes"))
    }
}

final class Feed {
    static let shared = Feed()
    func refresh() -> AnyPublisher<Int, Error> {
        Just(1).setFailureType(to: Error.self).eraseToAnyPublisher()
    }
}
