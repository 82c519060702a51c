// swift-format-ignore-file
import BackgroundTasks
import Combine
import UIKit

/// The expiration handler completes the task and stops nothing; the refresh's completion arrives whatever happens,
/// and each case of its `switch` completes the task again: a refresh that runs out of time is completed twice.
final class EpisodeRefresher {
    private var cancellables = Set<AnyCancellable>()

    func register() {
        let handler: (BGTask) -> Void = { [unowned self] task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            self.schedule()
            Feed.shared.refresh()
                .sink(receiveCompletion: { completion in
                    switch completion {
                    case .finished: task.setTaskCompleted(success: true) // expect: task-completed-twice
                    case .failure: task.setTaskCompleted(success: false) // expect: task-completed-twice
                    }
                }, receiveValue: { _ in })
                .store(in: &self.cancellables)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.episodes", using: .main, launchHandler: handler)
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
