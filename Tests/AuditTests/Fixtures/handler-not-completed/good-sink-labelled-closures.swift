// swift-format-ignore-file
import BackgroundTasks
import Combine

final class RatesRefresh {
    private var subscriptions = Set<AnyCancellable>()

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.rates", using: nil) { task in
            self.schedule()
            let refresh = Rates.fetch()
                .sink(receiveCompletion: { completion in
                    if case .failure = completion {
                        task.setTaskCompleted(success: false)
                    }
                }, receiveValue: { rates in
                    Rates.store(rates)
                    task.setTaskCompleted(success: true)
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
