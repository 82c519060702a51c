// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct JournalApp: App {
    @Environment(\.scenePhase) private var phase

    init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.weekly", using: nil) { task in // expect: registered-never-submitted, handler-not-rescheduling
            task.expirationHandler = { Weekly.cancel() }
            Weekly.build { task.setTaskCompleted(success: $0) }
            Weekly.prepareNext()
        }
    }

    var body: some Scene {
        WindowGroup { JournalView() }
            .onChange(of: phase) { _, newPhase in
                if newPhase == .background { Weekly.prepareNext() }
            }
    }
}

enum Weekly {
    static var next: BGAppRefreshTaskRequest?

    /// Builds the request but never hands it to BGTaskScheduler.
    static func prepareNext() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.weekly")
        request.earliestBeginDate = Calendar.current.date(byAdding: .day, value: 7, to: .now)
        next = request
    }
}
