import Domain
import Storage

/// Where a retrain reads users' days, models and ids: a `LogReader` on a connection of its own, or the
/// store itself when no reader can be opened.
protocol LogSource: Actor {
    func user(_ id: UserID) async throws(StorageError) -> User?
    func sourcedDayValues(user: UserID, through last: Day) async throws(StorageError) -> [SourcedDayValues]
    func dayValues(users: [UserID], through last: Day) async throws(StorageError) -> [[DayValues]]
    func servingModel(scope: String) async throws(StorageError) -> StoredModel?
    func userIDs() async throws(StorageError) -> [UserID]
    func users(_ ids: [UserID]) async throws(StorageError) -> [User]
    func sourcedDayValues(users: [UserID], through last: Day) async throws(StorageError) -> [[SourcedDayValues]]
    func servingModels(scopes: [String]) async throws(StorageError) -> [String: StoredModel]
}

extension LogReader: LogSource {}
extension Store: LogSource {}

/// The log readers of one `PersonalModels`: an idle one is handed out, or a new one opened, up to one per
/// concurrent worker (`limit`); beyond it, a worker waits for one to come back. When the database refuses another
/// connection (`StorageError.isBusy`: a server at its `max_connections` or the role's connection limit), no more are
/// tried: a worker waits for one of the readers already open, or, when none could be opened, reads through the store.
final class ReaderPool: Sendable {
    enum Taken {
        case reader(LogReader)
        /// No reader could be opened: read through the store.
        case none
    }

    private struct State {
        var idle: [LogReader] = []
        /// Readers open, and being opened.
        var opened = 0
        var opening = 0
        /// Set once opening a reader was refused; then no more are opened.
        var isFull = false
        /// Workers waiting for a reader; `nil` tells them none will come, to read through the store.
        var waiting: [CheckedContinuation<LogReader?, Never>] = []
        /// Tests waiting for that many workers to wait (`untilWaitingForTesting`).
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes the watchers whose count of waiting workers is reached.
        mutating func reachedWatchers() -> [CheckedContinuation<Void, Never>] {
            let reached = watchers.filter { $0.count <= waiting.count }.map(\.continuation)
            watchers.removeAll { $0.count <= waiting.count }
            return reached
        }
    }

    private let state = Locked(State())
    private let limit: Int

    /// A pool of at most `limit` readers: a worker's next batch is prepared while its last one's parts are read,
    /// and waits for that reader rather than opening a connection more.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// A reader for one worker: give it back with `give(back:)`. Opening a reader's error is thrown
    /// unless it is the database's refusal of another connection, which is logged once.
    func take(opening open: () throws(StorageError) -> LogReader, log: any LogSink) async throws(StorageError)
        -> Taken
    {
        enum Next {
            case reader(LogReader)
            case open
            case wait
            case none
        }
        let next = state.withLock { state -> Next in
            if let reader = state.idle.popLast() { return .reader(reader) }
            if !state.isFull && state.opened + state.opening < limit {
                state.opening += 1
                return .open
            }
            return state.opened + state.opening > 0 ? .wait : .none
        }
        switch next {
        case .reader(let reader): return .reader(reader)
        case .none: return .none
        case .wait: return await waitForReader().map(Taken.reader) ?? .none
        case .open:
            do {
                let reader = try open()
                state.withLock { state in
                    state.opening -= 1
                    state.opened += 1
                }
                return .reader(reader)
            } catch {
                let (opened, abandoned) = state.withLock {
                    state -> (Int, [CheckedContinuation<LogReader?, Never>]) in
                    state.opening -= 1
                    if error.isBusy { state.isFull = true }
                    guard state.opened + state.opening == 0 else { return (state.opened, []) }
                    defer { state.waiting.removeAll() }
                    return (0, state.waiting)
                }
                for worker in abandoned { worker.resume(returning: nil) }
                guard error.isBusy else { throw error }
                log.log(
                    .warning,
                    "could not open another connection to read users' days (\(error)); going on with "
                        + (opened == 0 ? "the store's own connection" : "the \(opened) open"))
                return opened > 0 ? await waitForReader().map(Taken.reader) ?? .none : .none
            }
        }
    }

    /// Returns once `count` workers wait for a reader.
    func untilWaitingForTesting(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state -> Bool in
                guard state.waiting.count < count else { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Returns a reader taken with `take`: to a worker waiting for one, or to the idle ones.
    func give(back reader: LogReader) {
        let waiter = state.withLock { state -> CheckedContinuation<LogReader?, Never>? in
            if !state.waiting.isEmpty { return state.waiting.removeFirst() }
            state.idle.append(reader)
            return nil
        }
        waiter?.resume(returning: reader)
    }

    /// A reader given back by another worker, or an idle one if one was given back meanwhile; `nil` when no
    /// reader is open or being opened, so none will come back.
    private func waitForReader() async -> LogReader? {
        await withCheckedContinuation { continuation in
            let (found, watchers) = state.withLock { state -> (LogReader??, [CheckedContinuation<Void, Never>]) in
                if let reader = state.idle.popLast() { return (.some(reader), []) }
                guard state.opened + state.opening > 0 else { return (.some(nil), []) }
                state.waiting.append(continuation)
                return (nil, state.reachedWatchers())
            }
            for watcher in watchers { watcher.resume() }
            if let found { continuation.resume(returning: found) }
        }
    }
}
