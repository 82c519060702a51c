// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// A SwiftUI app whose delegate books the first refresh when the app moves to the background — from
/// `applicationDidEnterBackground(_:)`, which UIKit never calls in an app whose UI lives in scenes, as a SwiftUI app's
/// does. Only the handler submits a request that is ever made: the chain never starts.
@main
struct TidesApp: App {
    @UIApplicationDelegateAdaptor(TidesDelegate.self) var delegate

    var body: some Scene {
        WindowGroup { Text("Tides") }
    }
}

final class TidesDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.tides.refresh", using: nil) { task in // expect: chain-never-starts
            self.bookRefresh()
            task.expirationHandler = { Tides.cancel() }
            Tides.fetch { task.setTaskCompleted(success: $0) }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        bookRefresh()
    }

    func bookRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.tides.refresh"))
    }
}

enum Tides {
    static func fetch(_ done: @escaping (Bool) -> Void) { done(true) }
    static func cancel() {}
}
