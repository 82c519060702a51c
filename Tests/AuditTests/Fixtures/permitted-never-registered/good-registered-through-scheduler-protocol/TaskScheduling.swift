// swift-format-ignore-file
import BackgroundTasks

/// The scheduler as the coordinators see it, so that tests can hand them a fake one.
protocol TaskScheduling {
    func registerHandler(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool
    func submit(_ taskRequest: BGTaskRequest) throws
}

extension BGTaskScheduler: TaskScheduling {
    func registerHandler(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool {
        register(forTaskWithIdentifier: identifier, using: queue) { task in
            launchHandler(task)
        }
    }
}
