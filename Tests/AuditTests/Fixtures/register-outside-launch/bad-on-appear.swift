// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

struct TodayView: View {
    var body: some View {
        Text("Today")
            .onAppear {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect: register-outside-launch
                    Refresher.handle(task)
                }
                Refresher.schedule()
            }
    }
}

enum Refresher {
    static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
        try? BGTaskScheduler.shared.submit(request)
    }

    static func handle(_ task: BGTask) {
        schedule()
        let work = Task { await Store.shared.refresh() }
        task.expirationHandler = { work.cancel() }
        Task {
            _ = await work.value
            task.setTaskCompleted(success: !work.isCancelled)
        }
    }
}
