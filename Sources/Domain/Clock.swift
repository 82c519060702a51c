public import Foundation

/// Where the current time comes from. Everything that asks "what time is it" takes one, so tests
/// and `--now` can replay any moment.
public protocol Clock: Sendable {
    var now: Date { get }
}

/// The machine's clock.
public struct SystemClock: Clock {
    public init() {}
    public var now: Date { Date() }
}

/// A clock stopped at one instant (`--now`).
public struct FixedClock: Clock {
    public let now: Date

    public init(_ now: Date) {
        self.now = now
    }
}

/// A clock that moves only when told to: tests and simulations advance it explicitly.
public final class ManualClock: Clock {
    private let instant: Locked<Date>

    public init(_ start: Date) {
        instant = Locked(start)
    }

    public var now: Date {
        instant.withLock { $0 }
    }

    public func set(_ date: Date) {
        instant.withLock { $0 = date }
    }

    public func advance(by seconds: TimeInterval) {
        instant.withLock { $0 += seconds }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
