public import Foundation

/// Decides when a run's budget is used up.
///
/// In production the budget is real time (`WallClockExpiryTimer`), whatever the injected clock says:
/// `--now` fixes the clock, but a 30-second budget is still 30 seconds of the machine's time. Tests
/// and simulations use `ManualExpiryTimer`, where time passes only when they say so.
public protocol ExpiryTimer: Sendable {
    /// Returns once `duration` seconds have passed since `start`; throws `CancellationError` as soon
    /// as the waiting task is cancelled.
    func wait(_ duration: TimeInterval, from start: Date) async throws(CancellationError)
}

/// Real time: sleeps for the duration. The scheduler calls it the moment a run starts, so `start`
/// (an instant of the injected clock, which may be fixed) is not needed.
public struct WallClockExpiryTimer: ExpiryTimer {
    public init() {}

    public func wait(_ duration: TimeInterval, from start: Date) async throws(CancellationError) {
        do {
            try await Task.sleep(for: .seconds(max(0, duration)))
        } catch {
            throw CancellationError()
        }
    }
}
