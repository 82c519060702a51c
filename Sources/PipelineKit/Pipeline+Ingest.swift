public import Domain
import Foundation
public import Ingestion
import Storage
import Synchronization

/// What an ingestion stored and rejected.
public struct IngestReport: Sendable, Hashable {
    /// Non-blank input lines (or records, for a batch) seen.
    public var records = 0
    /// Records stored, by record type (`entry`, `health`, `user`, `settings`, `watch`).
    public var stored: [String: Int] = [:]
    /// Records rejected, each reported through the caller's callback.
    public var rejected = 0
    /// Whether anything was written: `false` when a strict ingestion rolled back.
    public var committed = true
    /// The watch items applied right after storing (the foreground path).
    public var drained = DrainReport()

    public init() {}

    public var storedCount: Int { stored.values.reduce(0, +) }
}

extension InputRecord {
    /// The record's type as JSON Lines spells it.
    public var typeName: String {
        switch self {
        case .user: "user"
        case .settings: "settings"
        case .entry: "entry"
        case .health: "health"
        case .watch: "watch"
        }
    }

    /// The day the record writes, if it writes one.
    var day: Day? {
        switch self {
        case .entry(let entry): entry.day
        case .health(let metrics): metrics.day
        case .user, .settings, .watch: nil
        }
    }
}

/// DESIGN §2: a row for tomorrow may exist (time-zone travel, clock skew), but a row more than one
/// day after the user's today is an error.
func checkNotTooFarAhead(_ day: Day, field: String, timeZone: TimeZone, now: Date) throws(FieldError) {
    let today = Day(containing: now, in: timeZone)
    guard day.ordinal <= today.ordinal + 1 else {
        throw FieldError(
            field, "is more than one day after today (\(today) in \(timeZone.ianaName)); future days are refused")
    }
}

extension Pipeline {
    /// Validates and stores one record. Entries and health metrics for a user the database has not
    /// seen create the user with time zone UTC.
    public func ingest(_ record: InputRecord) async throws(PipelineError) {
        let report = try await ingest([record], strict: true)
        _ = report
    }

    /// Validates and stores records in order, in one transaction, then applies queued watch items
    /// of the known kinds. A record that breaks a rule is rejected with the reason in the thrown
    /// `.rejected` errors (its index + 1 as the "line"); with `strict`, nothing is stored then,
    /// otherwise the valid records are.
    @discardableResult
    public func ingest(_ records: [InputRecord], strict: Bool = false) async throws(PipelineError) -> IngestReport {
        let rejections = RejectionLog()
        let now = clock.now
        let report: IngestReport
        do {
            report = try await store.batch { store in
                var ingestor = RecordIngestor(strict: strict, now: now)
                for (index, record) in records.enumerated() {
                    try ingestor.ingest(record, line: index + 1, into: store, rejected: rejections.append)
                }
                return try ingestor.finish(into: store, rejected: rejections.append)
            }
        } catch let error as StorageError {
            throw .storage(error)
        } catch is StrictRollback {
            throw .rejected(rejections.errors)
        } catch {
            preconditionFailure("unexpected error: \(error)")
        }
        var finished = report
        finished.drained = try await drainWatchQueue()
        if !rejections.errors.isEmpty { throw .rejected(rejections.errors) }
        return finished
    }

    /// Reads JSON Lines (DESIGN §7) from `source` and stores them, streaming: memory does not grow
    /// with the input. Each rejected line is passed to `onRejected` as
    /// `line N: field: problem`, and the good lines around it are kept — unless `strict`, when any
    /// rejection rolls everything back. Then applies queued watch items of the known kinds.
    public func ingestJSONLines(
        from source: JSONLinesReader.Source, strict: Bool = false,
        onRejected: @escaping @Sendable (IngestionError) -> Void
    ) async throws(PipelineError) -> IngestReport {
        let now = clock.now
        var report: IngestReport
        do {
            let lines = ConcurrentLineDecoder(source: source, decoder: RecordDecoder(defaultEnqueuedAt: now))
            defer { lines.cancel() }
            report = try await store.batch { store in
                var ingestor = RecordIngestor(strict: strict, now: now)
                ingestor.boundsChecked = true
                while let chunk = try lines.next() {
                    for line in chunk {
                        switch line {
                        case .record(let number, let record):
                            try ingestor.ingest(record, line: number, into: store, rejected: onRejected)
                        case .rejected(let number, let error):
                            ingestor.report.records += 1
                            ingestor.reject(error, line: number, rejected: onRejected)
                        }
                    }
                }
                return try ingestor.finish(into: store, rejected: onRejected)
            }
        } catch let error as StorageError {
            throw .storage(error)
        } catch let error as IngestionError {
            throw .input(error)
        } catch let rollback as StrictRollback {
            return rollback.report
        } catch {
            preconditionFailure("unexpected error: \(error)")
        }
        report.drained = try await drainWatchQueue()
        return report
    }
}

/// Thrown inside a strict batch to roll it back; carries what the batch found.
struct StrictRollback: Error {
    var report: IngestReport
}

/// Collects rejections from inside a batch for the batch API.
final class RejectionLog: Sendable {
    private let storage = Mutex<[IngestionError]>([])

    var errors: [IngestionError] { storage.withLock { $0 } }

    @Sendable func append(_ error: IngestionError) {
        storage.withLock { $0.append(error) }
    }
}

/// The per-record rules of an ingestion, run inside the store's transaction: the future-day rule
/// (which needs the user's time zone, possibly set earlier in the same input), staging, and
/// periodic commits of a long non-strict input.
struct RecordIngestor {
    let strict: Bool
    let now: Date
    /// Whether records arrive already checked against the bounds (the JSON Lines decoder checks
    /// them), so only the rules that need the database remain.
    var boundsChecked = false
    var report = IngestReport()
    /// The last day each user may write (their tomorrow), computed once per user.
    var lastAllowedDay: [UserID: Day] = [:]
    var sinceCheckpoint = 0

    /// Records per transaction in a non-strict ingestion: large enough that commits cost nothing
    /// measurable, small enough that a crash loses at most this much unfinished work.
    static let checkpointInterval = 50_000

    init(strict: Bool, now: Date) {
        self.strict = strict
        self.now = now
    }

    /// Consecutive entries and health syncs for one user-day, not yet staged: most inputs carry a
    /// day's entry and its health sync next to each other, and one upsert per day halves the work.
    var pending: (write: DayWrite, lines: [(number: Int, type: String)])?

    mutating func ingest(
        _ record: InputRecord, line: Int, into store: isolated Store, rejected: (IngestionError) -> Void
    ) throws {
        report.records += 1
        do throws(FieldError) {
            try validate(record, store: store)
        } catch {
            reject(error, line: line, rejected: rejected)
            return
        }
        switch record {
        case .entry(let entry):
            if pending?.write.user == entry.user && pending?.write.day == entry.day {
                pending!.write.merge(entry)
                pending!.lines.append((line, "entry"))
            } else {
                try flush(into: store, rejected: rejected)
                pending = (DayWrite(entry), [(line, "entry")])
            }
        case .health(let metrics):
            if pending?.write.user == metrics.user && pending?.write.day == metrics.day {
                pending!.write.merge(metrics)
                pending!.lines.append((line, "health"))
            } else {
                try flush(into: store, rejected: rejected)
                pending = (DayWrite(metrics), [(line, "health")])
            }
        case .user, .settings, .watch:
            // Other tables: their order relative to the pending day does not matter.
            if let refusal = try store.stage(record) {
                reject(
                    FieldError(record.typeName, "refused by the database (\(refusal))"), line: line, rejected: rejected)
                return
            }
            if case .user(let update) = record, let zone = update.timeZone {
                lastAllowedDay[update.id] = Day(containing: now, in: zone).adding(days: 1)
            }
        }
        report.stored[record.typeName, default: 0] += 1
        sinceCheckpoint += 1
        if !strict, sinceCheckpoint >= RecordIngestor.checkpointInterval {
            try flush(into: store, rejected: rejected)
            try store.checkpoint()
            sinceCheckpoint = 0
        }
    }

    /// Stages the pending day. The decoder checks every bound the schema does, so a refusal here
    /// means the two disagree; it is reported against each line that contributed to the day.
    mutating func flush(into store: isolated Store, rejected: (IngestionError) -> Void) throws {
        guard let (write, lines) = pending else { return }
        pending = nil
        if let refusal = try store.stage(write) {
            for line in lines {
                report.stored[line.type, default: 0] -= 1
                reject(
                    FieldError(line.type, "refused by the database (\(refusal))"), line: line.number, rejected: rejected
                )
            }
        }
    }

    mutating func reject(_ error: FieldError, line: Int, rejected: (IngestionError) -> Void) {
        report.rejected += 1
        rejected(.rejectedLine(line: line, error))
    }

    private mutating func validate(_ record: InputRecord, store: isolated Store) throws(FieldError) {
        switch record {
        case .entry(let entry):
            if !boundsChecked {
                do { try entry.validate() } catch { throw FieldError(error) }
            }
            try checkDay(entry.day, field: "day", user: entry.user, store: store)
        case .health(let metrics):
            if !boundsChecked {
                do { try metrics.validate() } catch { throw FieldError(error) }
            }
            try checkDay(metrics.day, field: "day", user: metrics.user, store: store)
        case .watch(let item):
            if let kind = WatchKind(rawValue: item.kind) {
                let payload = try WatchPayload.entry(
                    for: WatchItem(id: 0, user: item.user, kind: kind.rawValue, payload: item.payload, enqueuedAt: now))
                if let day = payload?.day { try checkDay(day, field: "payload.day", user: item.user, store: store) }
            }
        case .settings(let update):
            for case (let key, let value?) in update.changes {
                do { try key.validate(value) } catch { throw FieldError(error) }
            }
        case .user:
            break
        }
    }

    private mutating func checkDay(_ day: Day, field: String, user: UserID, store: isolated Store) throws(FieldError) {
        if let last = lastAllowedDay[user], day <= last { return }
        // A storage failure here surfaces when the record is staged; UTC is the new-user default.
        let zone = ((try? store.timeZone(of: user)) ?? nil) ?? .utc
        lastAllowedDay[user] = Day(containing: now, in: zone).adding(days: 1)
        try checkNotTooFarAhead(day, field: field, timeZone: zone, now: now)
    }

    mutating func finish(into store: isolated Store, rejected: (IngestionError) -> Void) throws -> IngestReport {
        try flush(into: store, rejected: rejected)
        if strict, report.rejected > 0 {
            var rolledBack = report
            rolledBack.committed = false
            rolledBack.stored = [:]
            throw StrictRollback(report: rolledBack)
        }
        return report
    }
}

extension FieldError {
    init(_ error: DomainError) {
        switch error {
        case .invalidValue(let field, let problem): self.init(field, problem)
        }
    }
}
