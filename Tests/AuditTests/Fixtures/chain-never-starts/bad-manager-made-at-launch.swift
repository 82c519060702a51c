// swift-format-ignore-file
//  PrefetchManager.swift: a header comment that names the type is not a use of it.
import BackgroundTasks
import SwiftUI

/// The app makes the manager at launch, so its registration runs: the handler's early `return` leaves the task
/// uncompleted, and only the handler itself ever submits a request, so the chain never starts.
final class PrefetchManager: ObservableObject {
    static let shared = PrefetchManager()

    @Published var lastRun: Date?

    private init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.prefetch", using: nil) { task in // expect: chain-never-starts
            guard let task = task as? BGProcessingTask else { return } // expect: handler-not-completed
            self.schedule()
            task.expirationHandler = { Prefetcher.cancel() }
            Prefetcher.run { task.setTaskCompleted(success: $0) }
        }
    }

    func schedule() {
        print("PrefetchManager: scheduling")
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.prefetch"))
    }
}

enum Prefetcher {
    static func run(_ done: @escaping (Bool) -> Void) { DispatchQueue.global().async { done(true) } }
    static func cancel() {}
}

@main
struct NewsApp: App {
    @StateObject private var prefetch = PrefetchManager.shared

    var body: some Scene {
        WindowGroup { Text("News") }
    }
}
