// swift-format-ignore-file
import BackgroundTasks
import SwiftUI
import UIKit

struct HelpView: View {
    // The old code registered here; it crashed on background launches:
    // .onAppear { BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { _ in } }
    /* Kept for the write-up:
       /* nested: */ BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { _ in }
       still inside the outer comment: .onAppear { register() }
     */
    let snippet = """
        .onAppear {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in }
        }
        """
    let raw = #"Text("\(x)").onAppear { BGTaskScheduler.shared.register(forTaskWithIdentifier: "a", using: nil) { _ in } }"#

    var body: some View {
        Text(snippet).onAppear { print("\(raw.count) characters") }
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.expirationHandler = { Sync.cancel() }
            Sync.schedule()
            Sync.run { task.setTaskCompleted(success: $0) }
        }
        Sync.schedule()
        return true
    }
}

enum Sync {
    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
    }
}
