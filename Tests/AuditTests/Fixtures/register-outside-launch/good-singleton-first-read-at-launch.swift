// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The service registers its task when its shared instance is made, and the app reads `shared` in its initialiser,
/// at launch: the registration is made then, whatever reads come later (the view's).
final class TrendingService: ObservableObject {
    static let shared = TrendingService()

    private init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.trending", using: nil) { task in
            TrendingService.shared.schedule()
            task.expirationHandler = { Feed.cancel() }
            Feed.reload { task.setTaskCompleted(success: $0) }
        }
    }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.trending"))
    }
}

enum Feed {
    static func reload(_ done: @escaping (Bool) -> Void) { DispatchQueue.global().async { done(true) } }
    static func cancel() {}
}

struct TrendingView: View {
    @ObservedObject private var service = TrendingService.shared

    var body: some View {
        Text("Trending").onAppear { service.schedule() }
    }
}

@main
struct ReaderApp: App {
    init() {
        TrendingService.shared.schedule()
    }

    var body: some Scene {
        WindowGroup { TrendingView() }
    }
}
