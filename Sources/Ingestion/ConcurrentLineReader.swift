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
/// over at once. A task waits for the next chunk with `next()`, which suspends and holds no thread of the
/// cooperative pool while the input stalls; a thread that may block (a store's own) waits with `nextBlocking()`.
/// One consumer at a time.
public final class ConcurrentLineReader<Output: Sendable>: Sendable {
    private enum Item: Sendable {
        case outputs([Output])
        case finished
        case failed(IngestionError)
    }

    /// The chunks handed over and not yet taken, and the task waiting for one, if any.
    private struct Queue {
        var items: [Item] = []
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let queue = Locked(Queue())
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
        let untaken = queue.withLock { $0.items.count }
        for _ in 0..<untaken { free.signal() }
    }

    /// The next chunk of outputs, in order; `nil` at the end of the input. Suspends until the reading thread
    /// hands one over: an ingestion waiting on a slow pipe leaves the cooperative pool's threads to other work.
    public func next() async throws(IngestionError) -> [Output]? {
        guard !done.load(ordering: .relaxed) else { return nil }
        await withCheckedContinuation { (ready: CheckedContinuation<Void, Never>) in
            let waiting = queue.withLock { queue in
                guard queue.items.isEmpty else { return false }
                queue.waiter = ready
                return true
            }
            if !waiting { ready.resume() }
        }
        return try take()
    }

    /// `next()` for a thread that may block, such as a store's connection thread inside a transaction: it waits
    /// on the thread.
    public func nextBlocking() throws(IngestionError) -> [Output]? {
        guard !done.load(ordering: .relaxed) else { return nil }
        return try take()
    }

    /// Takes the first chunk handed over, waiting on the thread for one (`next()` has waited already).
    private func take() throws(IngestionError) -> [Output]? {
        filled.wait()
        let item = queue.withLock { $0.items.removeFirst() }
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
        queue.withLock { !$0.items.isEmpty }
    }

    /// Stops the reading thread; outputs not yet taken are dropped. Safe to call more than once.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
        free.signal()
    }

    private func push(_ item: Item) -> Bool {
        free.wait()
        guard !cancelled.load(ordering: .relaxed) else { return false }
        let waiter = queue.withLock { queue in
            queue.items.append(item)
            defer { queue.waiter = nil }
            return queue.waiter
        }
        filled.signal()
        waiter?.resume()
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
