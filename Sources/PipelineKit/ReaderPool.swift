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

/// The log readers of one `PersonalModels`: an idle one is handed out, or a new one opened, one per
/// concurrent worker. When the database refuses another connection (`StorageError.isBusy`: a server at
/// its `max_connections` or the role's connection limit), no more are tried: a worker waits for one of
/// the readers already open, or, when none could be opened, reads through the store.
final class ReaderPool: Sendable {
    enum Taken {
        case reader(LogReader)
        /// No reader could be opened: read through the store.
        case none
    }

    private struct State {
        var idle: [LogReader] = []
        var opened = 0
        /// Set once opening a reader was refused; then no more are opened.
        var isFull = false
        var waiting: [CheckedContinuation<LogReader, Never>] = []
    }

    private let state = Locked(State())

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
            if !state.isFull { return .open }
            return state.opened > 0 ? .wait : .none
        }
        switch next {
        case .reader(let reader): return .reader(reader)
        case .none: return .none
        case .wait: return .reader(await waitForReader())
        case .open:
            do {
                let reader = try open()
                state.withLock { $0.opened += 1 }
                return .reader(reader)
            } catch  where error.isBusy {
                let opened = state.withLock { state in
                    state.isFull = true
                    return state.opened
                }
                log.log(
                    .warning,
                    "could not open another connection to read users' days (\(error)); going on with "
                        + (opened == 0 ? "the store's own connection" : "the \(opened) open"))
                return opened > 0 ? .reader(await waitForReader()) : .none
            }
        }
    }

    /// Returns a reader taken with `take`: to a worker waiting for one, or to the idle ones.
    func give(back reader: LogReader) {
        let waiter = state.withLock { state -> CheckedContinuation<LogReader, Never>? in
            if !state.waiting.isEmpty { return state.waiting.removeFirst() }
            state.idle.append(reader)
            return nil
        }
        waiter?.resume(returning: reader)
    }

    /// A reader given back by another worker, or an idle one if one was given back meanwhile.
    private func waitForReader() async -> LogReader {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> LogReader? in
                if let reader = state.idle.popLast() { return reader }
                state.waiting.append(continuation)
                return nil
            }
            if let idle { continuation.resume(returning: idle) }
        }
    }
}
