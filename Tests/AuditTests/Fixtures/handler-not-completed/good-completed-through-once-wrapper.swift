// swift-format-ignore-file
import BackgroundTasks
import Foundation

/// The handler wraps its completion in a complete-once closure that a project function returns, and calls the
/// wrapper on every path: whichever of the expiration handler and the scan's callback comes second does nothing.
final class ScanScheduler {
    private static func makeOnce(_ body: @escaping (Bool) -> Void) -> (Bool) -> Void {
        let lock = NSLock()
        var done = false
        return { value in
            lock.lock()
            let first = !done
            done = true
            lock.unlock()
            if first { body(value) }
        }
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.scan", using: nil) { task in
            self.schedule()
            let completeOnce = Self.makeOnce { task.setTaskCompleted(success: $0) }
            task.expirationHandler = { completeOnce(false) }
            guard Scanner.isEnabled else {
                completeOnce(true)
                return
            }
            Scanner.scan { ok in
                completeOnce(ok)
            }
        }
    }

    func sceneDidEnterBackground() { schedule() }

    func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.scan"))
    }
}
