// swift-format-ignore-file
import UIKit

/// A locked holder for a value, written through a closure given the value `inout`.
final class Holder<Value> {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func write<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The task is begun into the holder and its identifier returned from the closure at once; whoever comes first — the
/// expiration handler or the finished work — swaps in `.invalid` and ends it, exactly once.
final class ExportJob {
    private let application = UIApplication.shared
    private let identifier = Holder(UIBackgroundTaskIdentifier.invalid)

    func start() {
        let expire = { [application, identifier] in
            let claimed = identifier.write { ward -> UIBackgroundTaskIdentifier in
                defer { ward = .invalid }
                return ward
            }
            guard claimed != .invalid else { return }
            application.endBackgroundTask(claimed)
        }
        let begun = identifier.write { ward -> UIBackgroundTaskIdentifier in
            ward = application.beginBackgroundTask(withName: "export", expirationHandler: expire)
            return ward
        }
        guard begun != .invalid else { return }
        Exporter.run { self.finish() }
    }

    private func finish() {
        let claimed = identifier.write { ward -> UIBackgroundTaskIdentifier in
            defer { ward = .invalid }
            return ward
        }
        guard claimed != .invalid else { return }
        application.endBackgroundTask(claimed)
    }
}
