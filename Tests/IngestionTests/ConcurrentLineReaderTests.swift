import Dispatch
import Ingestion
import Testing

@Suite("Concurrent line reader")
struct ConcurrentLineReaderTests {
    /// Hands on each line's number.
    struct Numbers: LineProcessor {
        mutating func process(_ number: Int, _ line: JSONLinesReader.Line, into output: inout [Int]) {
            output.append(number)
        }

        mutating func finish(into output: inout [Int]) {}
    }

    /// A writer that stops at a database error drops the reader with chunks still queued. Each queued
    /// chunk held a slot of the reader's semaphore, and libdispatch ends the process (SIGILL) when a
    /// semaphore is released below its initial value: this test then crashes the test process. (Checked
    /// by removing the slots' return from `ConcurrentLineReader.deinit`: the run ended with signal 4.)
    @Test("a reader cancelled and dropped with chunks never taken ends without a trap")
    func droppedWithQueuedChunks() async throws {
        let input = Array((1...400).map { "{\"line\":\($0)}" }.joined(separator: "\n").utf8)
        weak var dropped: ConcurrentLineReader<Int>?
        do {
            let reader = ConcurrentLineReader(source: .bytes(input), processor: Numbers(), chunkSize: 4, depth: 4)
            dropped = reader
            #expect(try await reader.next() == [1, 2, 3, 4])
            // The reading thread fills every slot again and waits for a free one.
            await Self.until { reader.hasReadyChunk }
            reader.cancel()
        }
        // The reading thread holds the reader until it has stopped; then it is released.
        await Self.until { dropped == nil }
        #expect(dropped == nil)
    }

    @Test("a task awaiting chunks and a thread waiting for them read the same chunks, in order, to the end")
    func bothWaits() async throws {
        let input = Array((1...1_000).map { "{\"line\":\($0)}" }.joined(separator: "\n").utf8)
        let reader = ConcurrentLineReader(source: .bytes(input), processor: Numbers(), chunkSize: 7, depth: 2)
        var numbers: [Int] = []
        var awaited = true
        while let chunk = try (awaited ? await reader.next() : reader.nextBlocking()) {
            numbers += chunk
            awaited.toggle()
        }
        #expect(numbers == Array(1...1_000))
        #expect(try await reader.next() == nil)
        #expect(try reader.nextBlocking() == nil)
    }

    /// Polls `condition` between yields, for a state another thread reaches without a signal to wait on;
    /// gives up after many rounds (the caller's expectation then fails).
    static func until(_ condition: () -> Bool) async {
        for _ in 0..<5_000_000 where !condition() {
            await Task.yield()
        }
    }
}
