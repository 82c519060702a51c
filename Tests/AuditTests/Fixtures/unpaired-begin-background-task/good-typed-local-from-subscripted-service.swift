// swift-format-ignore-file
import UIKit

/// The identifier is kept in a local declared with its type, begun on the application read from a dependency
/// container's subscript, and handed to a box that ends it once: when the work finishes, or when time runs out.
final class Dependencies {
    static let shared = Dependencies()
    private var services: [ObjectIdentifier: Any] = [:]
    subscript<T>(_ type: T.Type) -> T { services[ObjectIdentifier(type)] as! T }
}

final class TaskBox {
    private let lock = NSLock()
    private var held = UIBackgroundTaskIdentifier.invalid

    func hold(_ identifier: UIBackgroundTaskIdentifier) {
        lock.lock()
        held = identifier
        lock.unlock()
    }

    func end() {
        lock.lock()
        let identifier = held
        held = .invalid
        lock.unlock()
        guard identifier != .invalid else { return }
        Dependencies.shared[UIApplication.self].endBackgroundTask(identifier)
    }
}

final class Exporter {
    func export(_ work: () -> Void) {
        let box = TaskBox()
        let begun: UIBackgroundTaskIdentifier = Dependencies.shared[UIApplication.self].beginBackgroundTask {
            box.end()
        }
        box.hold(begun)
        work()
        box.end()
    }
}
