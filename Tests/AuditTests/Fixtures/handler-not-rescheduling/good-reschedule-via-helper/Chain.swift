// swift-format-ignore-file
import BackgroundTasks

final class Chain {
    static let shared = Chain()
    static let retrain = "com.example.ml-retrain"

    func scheduleNext() {
        let request = BGProcessingTaskRequest(identifier: Self.retrain)
        request.requiresExternalPower = true
        enqueue(request)
    }

    private func enqueue(_ request: BGTaskRequest) {
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("could not submit \(request.identifier): \(error)")
        }
    }
}
