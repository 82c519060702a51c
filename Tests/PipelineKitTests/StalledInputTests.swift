import Domain
import Foundation
import Ingestion
import PipelineKit
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A library ingestion reads a stream that may stall (a socket, a pipe from another process): while it waits it must
/// hold none of the cooperative pool's threads, which every other task of the process (and the ingestion's own
/// writes) need.
@Suite("Stalled input", .timeLimit(.minutes(2)))
struct StalledInputTests {
    @Test(
        "ingestions waiting on stalled pipes, more of them than the cooperative pool has threads, leave its threads free: each stores the line it is sent while the others wait, and all end when their pipes close",
        arguments: TestBackend.all, [false, true])
    func stalledPipes(backend: TestBackend, strict: Bool) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let pipes = (0..<count).map { _ in Pipe() }
        // Were the pool held, nothing below would run; the guard, on a thread of its own, then ends the inputs so
        // the run ends, failed, instead of hanging.
        let guardFired = HangGuard(after: .seconds(90)) {
            for pipe in pipes { try? pipe.fileHandleForWriting.close() }
        }
        defer { guardFired.disarm() }

        let ingestions = pipes.map { pipe in
            Task {
                try await pipeline.ingestJSONLines(
                    from: .descriptor(pipe.fileHandleForReading.fileDescriptor), strict: strict
                ) { _ in }
            }
        }
        let users = (0..<count).map { UserID.literal("stalled-\($0)") }
        for (pipe, user) in zip(pipes, users) {
            let line = #"{"type":"entry","user":"\#(user.rawValue)","day":"2026-03-01","symptomSeverity":4}"# + "\n"
            try pipe.fileHandleForWriting.write(contentsOf: Data(line.utf8))
        }
        if strict {
            // Each ingestion reads its whole input before it stores any: it has taken its line and waits for more.
            for pipe in pipes {
                while Self.unread(pipe) > 0 && !guardFired.fired { try await Task.sleep(for: .milliseconds(5)) }
            }
        } else {
            // Each ingestion stores what it has read as soon as its input has nothing more ready.
            for user in users {
                while try await pipeline.dailyLogs(user: user).isEmpty && !guardFired.fired {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
        }
        for pipe in pipes { try pipe.fileHandleForWriting.close() }
        for ingestion in ingestions {
            let report = try await ingestion.value
            #expect(report.records == 1)
            #expect(report.rejected == 0)
        }
        #expect(!guardFired.fired, "the ingestions held the cooperative pool until the guard closed their inputs")
        for user in users {
            #expect(try await pipeline.dailyLogs(user: user).map(\.symptomSeverity) == [4])
        }
        for pipe in pipes { try pipe.fileHandleForReading.close() }
    }

    /// How many bytes written to `pipe` are not read yet.
    static func unread(_ pipe: Pipe) -> Int32 {
        var count: Int32 = 0
        _ = ioctl(pipe.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &count)
        return count
    }
}

/// Runs `action` on a thread of its own if it is not disarmed within `limit`.
private final class HangGuard: Sendable {
    private let disarmed = DispatchSemaphore(value: 0)
    private let state = Atomic<Bool>(false)

    var fired: Bool { state.load(ordering: .acquiring) }

    init(after limit: Duration, action: @escaping @Sendable () -> Void) {
        let seconds = Double(limit.components.seconds)
        let thread = Thread { [self] in
            guard disarmed.wait(timeout: .now() + seconds) == .timedOut else { return }
            state.store(true, ordering: .releasing)
            action()
        }
        thread.start()
    }

    func disarm() {
        disarmed.signal()
    }
}
