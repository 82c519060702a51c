// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct AwareApp: App {
    var body: some Scene {
        WindowGroup { Text("x") }
            .refreshing(monitorTask)
    }

    init() {
        monitorTask.schedule()
    }
}

let monitorTask = Monitor(identifier: "com.example.monitor")

struct Monitor {
    let identifier: String
    func run() async {
        schedule()
    }
    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: identifier))
    }
}

// The app's own modifier wraps SwiftUI's: `backgroundTask(…)` with no dot, in an extension of `Scene`, registers the
// monitor's identifier as `.backgroundTask(…)` does.
extension Scene {
    func refreshing(_ task: Monitor) -> some Scene {
        backgroundTask(.appRefresh(task.identifier)) {
            await task.run()
        }
    }
}
