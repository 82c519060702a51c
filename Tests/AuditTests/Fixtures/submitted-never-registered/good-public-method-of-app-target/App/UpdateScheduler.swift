// swift-format-ignore-file
import BackgroundTasks

// `public` in an app target, which no other module imports: the method that builds the request is called by nothing,
// so the request for an identifier no code registers is never made.
public final class UpdateScheduler {
    public static let shared = UpdateScheduler()

    public func start() {
        print("updates start")
    }

    public func scheduleBackgroundUpdate() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.autoUpdate")
        try? BGTaskScheduler.shared.submit(request)
    }
}
