import Dispatch
import Domain
import Foundation
import Synchronization

/// What the reading thread does with each line of a JSON Lines input: everything that needs no
/// database (decoding, checking, grouping), so the thread that writes does only the writing.
public protocol LineProcessor: Sendable {
    associatedtype Output: Sendable
    /// Handles one line (1-based `number`), appending what the writer must do to `output`.
    mutating func process(_ number: Int, _ line: JSONLinesReader.Line, into output: inout [Output])
    /// Appends whatever is still held back once the input has ended.
    mutating func finish(into output: inout [Output])
    /// Appends what is held back because the input has nothing more ready for now: what was read
    /// must not wait on a stalled source. By default, nothing.
    mutating func caughtUp(into output: inout [Output])
}

extension LineProcessor {
    public mutating func caughtUp(into output: inout [Output]) {}
}

/// Reads JSON Lines and runs a `LineProcessor` over them on a thread of its own while the caller
/// stores the previous lines, so a large ingestion uses two cores: parsing overlaps SQLite's work
/// instead of adding to it.
///
/// Outputs arrive in input order, in chunks of what about `chunkSize` lines gave (a processor may hold
/// outputs back and hand on several lines' work as one); at most `depth` chunks wait at a time, so memory
/// stays flat however long the input; when the input has nothing more ready, what was read is handed
/// over at once. `next()` blocks: call it from a thread that may block.
public final class ConcurrentLineReader<Output: Sendable>: Sendable {
    private enum Item: Sendable {
        case outputs([Output])
        case finished
        case failed(IngestionError)
    }

    private let queue = Locked<[Item]>([])
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let cancelled = Atomic<Bool>(false)
    private let done = Atomic<Bool>(false)

    public init<Processor: LineProcessor>(
        source: JSONLinesReader.Source, processor: Processor, chunkSize: Int = 8_192, depth: Int = 8
    ) where Processor.Output == Output {
        free = DispatchSemaphore(value: depth)
        let thread = Thread { [self] in produce(source: source, processor: processor, chunkSize: chunkSize) }
        thread.name = "pipeline-read"
        thread.start()
    }

    /// Gives back the slots of the chunks never taken. libdispatch traps (SIGILL, "semaphore object
    /// deallocated while in use") when a semaphore is released with a value below the one it was created
    /// with, and each chunk left queued holds a slot of `free`: a writer that stops at a database error leaves
    /// some. The reading thread holds the reader until it has returned, so nothing waits on either semaphore
    /// now; `cancel()` has signalled `free` at least once for a wait that found the reader cancelled.
    deinit {
        cancel()
        let untaken = queue.withLock { $0.count }
        for _ in 0..<untaken { free.signal() }
    }

    /// The next chunk of outputs, in order; `nil` at the end of the input.
    public func next() throws(IngestionError) -> [Output]? {
        guard !done.load(ordering: .relaxed) else { return nil }
        filled.wait()
        let item = queue.withLock { $0.removeFirst() }
        free.signal()
        switch item {
        case .outputs(let outputs): return outputs
        case .finished:
            done.store(true, ordering: .relaxed)
            return nil
        case .failed(let error):
            done.store(true, ordering: .relaxed)
            throw error
        }
    }

    /// Whether a chunk is ready, so that `next()` would not wait for the reading thread.
    public var hasReadyChunk: Bool {
        queue.withLock { !$0.isEmpty }
    }

    /// Stops the reading thread; outputs not yet taken are dropped. Safe to call more than once.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
        free.signal()
    }

    private func push(_ item: Item) -> Bool {
        free.wait()
        guard !cancelled.load(ordering: .relaxed) else { return false }
        queue.withLock { $0.append(item) }
        filled.signal()
        return true
    }

    private func produce<Processor: LineProcessor>(
        source: JSONLinesReader.Source, processor: Processor, chunkSize: Int
    ) where Processor.Output == Output {
        var processor = processor
        var chunk: [Output] = []
        var linesInChunk = 0
        let outcome: Result<Void, IngestionError>
        do {
            outcome = try JSONLinesReader(source).forEachLine { (number, line) throws(ReadingStopped) in
                processor.process(number, line, into: &chunk)
                linesInChunk += 1
                if linesInChunk >= chunkSize, !chunk.isEmpty {
                    guard push(.outputs(chunk)) else { throw ReadingStopped() }
                    chunk.removeAll(keepingCapacity: true)
                    linesInChunk = 0
                }
            } caughtUp: { () throws(ReadingStopped) in
                // The input has nothing more ready: hand over what there is rather than hold it
                // while the source waits.
                processor.caughtUp(into: &chunk)
                guard !chunk.isEmpty else { return }
                guard push(.outputs(chunk)) else { throw ReadingStopped() }
                chunk.removeAll(keepingCapacity: true)
                linesInChunk = 0
            }
        } catch {
            return  // cancelled
        }
        processor.finish(into: &chunk)
        if !chunk.isEmpty, !push(.outputs(chunk)) { return }
        switch outcome {
        case .success: _ = push(.finished)
        case .failure(let error): _ = push(.failed(error))
        }
    }
}

/// Ends the reading loop when the reader is cancelled.
private struct ReadingStopped: Error {}

extension JSONLinesReader {
    /// The rejection of a line over `maximumLineLength`.
    public static let tooLongError = FieldError("line", "longer than the \(maximumLineLength >> 20) MiB limit")
}
