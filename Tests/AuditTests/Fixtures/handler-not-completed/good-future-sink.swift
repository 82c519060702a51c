// swift-format-ignore-file
import BackgroundTasks
import Combine

// A Future delivers one value, then `.finished`: the value closure has completed the task by then.
final class WeatherRefresh {
    private var subscriptions = Set<AnyCancellable>()

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.weather", using: nil) { task in
            self.schedule()
            let refresh = Future<Void, Error> { promise in Weather.update { promise($0) } }
                .sink { completion in
                    switch completion {
                    case .finished:
                        print("weather refresh finished")
                    case .failure:
                        task.setTaskCompleted(success: false)
                    }
                } receiveValue: { _ in
                    task.setTaskCompleted(success: true)
                }
            task.expirationHandler = { refresh.cancel() }
            refresh.store(in: &self.subscriptions)
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.weather"))
    }
}
