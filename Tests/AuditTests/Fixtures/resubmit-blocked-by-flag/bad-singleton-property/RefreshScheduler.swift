// swift-format-ignore-file
import BackgroundTasks
import Foundation

final class RefreshScheduler {
    static let shared = RefreshScheduler()
    static let identifier = "com.example.inbox-refresh"

    private var submitted = false

    private init() {}

    func scheduleNext() {
        if !submitted { // expect: resubmit-blocked-by-flag
            submitted = true
            let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
            request.earliestBeginDate = Date(timeIntervalSinceNow: 30 * 60)
            try? BGTaskScheduler.shared.submit(request)
        }
    }
}
