// swift-format-ignore-file
//  PrefetchManager.swift: a header comment that names the type is not a use of it.
import BackgroundTasks
import SwiftUI

/// A manager left behind: it registers its task when it is made, but nothing in the app ever names the type, so its
/// `shared` instance is never made and none of its code runs. Its handler's early `return` and its chain that only
/// its own handler would start are never reached.
final class PrefetchManager: ObservableObject {
    static let shared = PrefetchManager()

    @Published var lastRun: Date?

    private init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.prefetch", using: nil) { task in
            guard let task = task as? BGProcessingTask else { return }
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
    var body: some Scene {
        WindowGroup { Text("News") }
    }
}
