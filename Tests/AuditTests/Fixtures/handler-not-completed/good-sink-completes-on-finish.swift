// swift-format-ignore-file
import BackgroundTasks
import Combine

/// The zipped stream may finish without a value (a failed region update is replaced by an empty publisher): the
/// value closure only keeps the keys, and the completion closure completes the task on every outcome.
final class Detector {
    static let shared = Detector()
    private var cancellable: AnyCancellable?
    private var matched = false

    func detect(_ completion: @escaping (Bool) -> Void) {
        cancellable = Publishers.Zip(
            Keys.download(),
            Regions.update().catch { _ in Empty(completeImmediately: true) }
        )
        .receive(on: RunLoop.main)
        .sink(
            receiveCompletion: { _ in
                completion(self.matched)
            },
            receiveValue: { keys, _ in
                self.matched = !keys.isEmpty
            }
        )
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.detect", using: nil) { task in
            self.schedule()
            task.expirationHandler = { self.cancellable?.cancel() }
            self.detect { task.setTaskCompleted(success: $0) }
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.detect"))
    }
}
