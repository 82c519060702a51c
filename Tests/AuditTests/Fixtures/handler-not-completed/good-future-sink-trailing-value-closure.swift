// swift-format-ignore-file
import BackgroundTasks
import Combine

/// A `Future` delivers its one value, then finishes: the trailing value closure has completed the task by the time
/// the completion closure sees `.finished`.
final class Poster {
    private var cancellables = Set<AnyCancellable>()

    func post() -> Future<Void, Never> {
        Future { promise in
            DispatchQueue.main.asyncAfter(deadline: .now() + 5) { promise(.success(())) }
        }
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.post", using: nil) { task in
            self.schedule()
            self.post()
                .receive(on: DispatchQueue.main)
                .sink(receiveCompletion: { result in
                    switch result {
                    case .finished:
                        break
                    case .failure:
                        task.setTaskCompleted(success: false)
                    }
                }) { _ in
                    task.setTaskCompleted(success: true)
                }
                .store(in: &self.cancellables)
            task.expirationHandler = { self.cancellables.forEach { $0.cancel() } }
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.post"))
    }
}
