import Foundation
import Scheduling
import Testing

/// The production timer: real time, on one dispatch timer shared by every wait, which a cancellation leaves at once.
@Suite("The wall-clock expiry timer", .timeLimit(.minutes(2)))
struct WallClockTimerTests {
    @Test("a wait of no time returns, and a wait of an hour that is cancelled throws CancellationError at once")
    func waitsAndCancels() async throws {
        let timer = WallClockExpiryTimer()
        try await timer.wait(0, from: Date())
        try await timer.wait(-5, from: Date())

        // A thousand cancelled hour-long waits: each ends when it is cancelled, not an hour later
        // (the suite's two-minute limit fails a wait that does not).
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<1000 {
                group.addTask {
                    do {
                        try await timer.wait(3600, from: Date())
                        return false
                    } catch {
                        return true
                    }
                }
            }
            group.cancelAll()
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.count == 1000 && outcomes.allSatisfy { $0 }, "a cancelled wait returned normally")

        // Cancelled before it starts waiting.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await timer.wait(3600, from: Date())
        }
        await #expect(throws: CancellationError.self) { try await early.value }
    }

    @Test("a short wait that starts after a long one still ends on time: the shared timer is armed for it")
    func earlierDeadlineRearms() async throws {
        let timer = WallClockExpiryTimer()
        let long = Task { try await timer.wait(3600, from: Date()) }
        // Several rounds, so each short wait arms the timer again after the previous one fired.
        for _ in 0..<3 {
            let started = ContinuousClock.now
            try await timer.wait(0.05, from: Date())
            // Never early; a wait that is never woken fails the suite's time limit instead.
            #expect(ContinuousClock.now - started >= .milliseconds(50))
        }
        // Two waits at once end in the order of their deadlines, each when it is due: the sooner one's firing does
        // not wake the later one early.
        let later = Task { () -> (started: ContinuousClock.Instant, ended: ContinuousClock.Instant) in
            let started = ContinuousClock.now
            try await timer.wait(0.2, from: Date())
            return (started, ContinuousClock.now)
        }
        let soonerStarted = ContinuousClock.now
        try await timer.wait(0.05, from: Date())
        let soonerEnded = ContinuousClock.now
        #expect(soonerEnded - soonerStarted >= .milliseconds(50))
        let (laterStarted, laterEnded) = try await later.value
        #expect(laterEnded - laterStarted >= .milliseconds(200))
        #expect(laterEnded >= soonerEnded)
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
    }
}
