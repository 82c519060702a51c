// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

// A call client's `setup()`, called on an instance from a view, is not the backup task's `static func setup()`, which
// only the app delegate calls at launch: the registration is never reached from the view.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BackupTask.setup()
        BackupTask.schedule()
        return true
    }
}

enum BackupTask {
    static let identifier = "com.example.backup"

    static func setup() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            schedule()
            task.setTaskCompleted(success: true)
        }
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier))
    }
}

final class CallClient {
    func setup() async throws {}
}

struct CallView: View {
    let client: CallClient? = CallClient()

    var body: some View {
        Button("Call") {
            Task { try await client?.setup() }
        }
    }
}
