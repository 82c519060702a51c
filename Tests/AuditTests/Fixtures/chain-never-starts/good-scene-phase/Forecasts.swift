// swift-format-ignore-file
import BackgroundTasks

enum Forecasts {
    static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.forecast")
        request.earliestBeginDate = .now.addingTimeInterval(3 * 3600)
        try? BGTaskScheduler.shared.submit(request)
    }

    static func refresh() async {}
}
