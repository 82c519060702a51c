// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// A library: the package at the top of the repository is its product, which apps built on it call; the example app
/// beside it does not ask for the registration, but an app that depends on the package does.
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
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.reader.refresh"))
    }
}

public struct FeedView: View {
    public init() {}
    public var body: some View { Text("Feed") }
}
