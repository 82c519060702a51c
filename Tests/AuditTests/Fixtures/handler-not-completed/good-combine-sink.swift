// swift-format-ignore-file
import BackgroundTasks
import Combine

final class PriceRefresh {
    private var cancellables = Set<AnyCancellable>()

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.prices", using: nil) { task in
            self.schedule()
            let request = Prices.publisher()
                .sink(receiveCompletion: { completion in
                    task.setTaskCompleted(success: completion == .finished)
                }, receiveValue: { prices in
                    Prices.store(prices)
                })
            task.expirationHandler = { request.cancel() }
            request.store(in: &self.cancellables)
        }
    }

    func sceneDidEnterBackground(_ scene: UIScene) { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.prices"))
    }
}
