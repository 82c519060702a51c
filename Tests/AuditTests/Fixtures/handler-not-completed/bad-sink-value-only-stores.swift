// swift-format-ignore-file
import BackgroundTasks
import Combine

// The value closure does not complete the task, so a publisher that finishes leaves it running.
final class RatesRefresh {
    private var subscriptions = Set<AnyCancellable>()

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.rates", using: nil) { task in
            self.schedule()
            let refresh = Rates.fetch()
                .sink(receiveCompletion: { completion in
                    if case .failure = completion { // expect: handler-not-completed
                        task.setTaskCompleted(success: false)
                    }
                }, receiveValue: { rates in
                    Rates.store(rates)
                })
            task.expirationHandler = { refresh.cancel() }
            refresh.store(in: &self.subscriptions)
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.rates"))
    }
}
