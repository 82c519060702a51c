// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The app's feature code, split into a package of the app's own: only the app builds it. Nothing in the app asks
/// for the registration (only its tests did), so no launch handler is ever registered for the permitted identifier.
public final class FeedRefresher {
    public static let shared = FeedRefresher()

    public func registerTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.reader.refresh", using: nil) { task in
            self.schedule()
            Feed.reload { task.setTaskCompleted(success: $0) }
            task.expirationHandler = { Feed.cancel() }
        }
    }

    public func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.reader.refresh")) // expect: submitted-never-registered
    }
}

public struct FeedView: View {
    public init() {}
    public var body: some View { Text("Feed") }
}
