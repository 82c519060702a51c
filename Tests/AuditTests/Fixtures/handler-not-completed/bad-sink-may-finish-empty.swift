// swift-format-ignore-file
import BackgroundTasks
import Combine

/// The value closure completes the task, but the zipped stream may finish without a value: a failed region update
/// is replaced by an empty publisher, which ends the zip at once, and the completion closure then completes nothing.
final class Detector {
    static let shared = Detector()
    private var cancellable: AnyCancellable?

    func detect(_ completion: @escaping (Bool) -> Void) {
        cancellable = Publishers.Zip(
            Keys.download(),
            Regions.update().catch { _ in Empty(completeImmediately: true) }
        )
        .receive(on: RunLoop.main)
        .sink(
            receiveCompletion: {
                if case .failure = $0 {
                    completion(false)
                }
            },
            receiveValue: { _ in
                completion(true)
            }
        )
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.detect", using: nil) { task in
            self.schedule()
            task.expirationHandler = { self.cancellable?.cancel() }
            self.detect { task.setTaskCompleted(success: $0) } // expect: handler-not-completed
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.detect"))
    }
}
