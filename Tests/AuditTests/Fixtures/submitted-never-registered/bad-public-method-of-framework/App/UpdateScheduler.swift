// swift-format-ignore-file
import BackgroundTasks

// `public` in a framework the app links: an app embedding it may call the method that builds the request, for an
// identifier no code registers.
public final class UpdateScheduler {
    public static let shared = UpdateScheduler()

    public func start() {
        print("updates start")
    }

    public func scheduleBackgroundUpdate() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.autoUpdate") // expect: submitted-never-registered
        try? BGTaskScheduler.shared.submit(request)
    }
}
