import Dispatch
public import Domain
import Foundation
import Synchronization

/// One input line after decoding.
public enum DecodedLine: Sendable {
    case record(line: Int, InputRecord)
    case rejected(line: Int, FieldError)
}

/// Reads and decodes JSON Lines on a thread of its own while the caller stores the previous lines,
/// so a large ingestion uses two cores: parsing overlaps SQLite's work instead of adding to it.
///
/// Decoded lines arrive in input order, in chunks; at most `depth` chunks wait at a time, so memory
/// stays flat however long the input. `next()` blocks: call it from a thread that may block (the
/// store's batch runs synchronously for the whole ingestion anyway).
public final class ConcurrentLineDecoder: Sendable {
    private enum Item: Sendable {
        case lines([DecodedLine])
        case finished
        case failed(IngestionError)
    }

    private let queue = Mutex<[Item]>([])
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let cancelled = Atomic<Bool>(false)
    private let done = Atomic<Bool>(false)

    public init(source: JSONLinesReader.Source, decoder: RecordDecoder, chunkSize: Int = 4_096, depth: Int = 8) {
        free = DispatchSemaphore(value: depth)
        let thread = Thread { [self] in produce(source: source, decoder: decoder, chunkSize: chunkSize) }
        thread.name = "pipeline-decode"
        thread.start()
    }

    deinit {
        cancel()
    }

    /// The next chunk of decoded lines, in order; `nil` at the end of the input.
    public func next() throws(IngestionError) -> [DecodedLine]? {
        guard !done.load(ordering: .relaxed) else { return nil }
        filled.wait()
        let item = queue.withLock { $0.removeFirst() }
        free.signal()
        switch item {
        case .lines(let lines): return lines
        case .finished:
            done.store(true, ordering: .relaxed)
            return nil
        case .failed(let error):
            done.store(true, ordering: .relaxed)
            throw error
        }
    }

    /// Stops the reading thread; lines not yet taken are dropped. Safe to call more than once.
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

    private func produce(source: JSONLinesReader.Source, decoder: RecordDecoder, chunkSize: Int) {
        struct Stop: Error {}
        var chunk: [DecodedLine] = []
        chunk.reserveCapacity(chunkSize)
        let tooLong = FieldError("line", "longer than the \(JSONLinesReader.maximumLineLength >> 20) MiB limit")
        let outcome: Result<Void, IngestionError>
        do {
            outcome = try JSONLinesReader(source).forEachLine { (number, line) throws(Stop) in
                switch line {
                case .tooLong:
                    chunk.append(.rejected(line: number, tooLong))
                case .text(let bytes):
                    do throws(FieldError) {
                        chunk.append(.record(line: number, try decoder.decode(line: bytes)))
                    } catch {
                        chunk.append(.rejected(line: number, error))
                    }
                }
                if chunk.count >= chunkSize {
                    guard push(.lines(chunk)) else { throw Stop() }
                    chunk.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            return  // cancelled
        }
        if !chunk.isEmpty, !push(.lines(chunk)) { return }
        switch outcome {
        case .success: _ = push(.finished)
        case .failure(let error): _ = push(.failed(error))
        }
    }
}
