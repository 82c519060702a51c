public import Domain
import Foundation
public import Ingestion
import Storage

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
    /// The watch items applied right after storing (the foreground path), with those withheld from the queue
    /// and stored with their day.
    public var drained = DrainReport()
    /// The watch items stored with their day instead of queued (`PlannedDay.watchItems`), by kind: counted
    /// among the stored records and, once the queue is drained, among the applied items.
    var storedWithDay: [String: Int] = [:]
    /// Reminder hours and time zones stored, for moving the calendar tasks' pending requests.
    var calendarInputs = CalendarInputs()

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

extension Pipeline {
    /// Validates and stores one record. Entries and health metrics for a user the database has not
    /// seen create the user with time zone UTC.
    public func ingest(_ record: InputRecord) async throws(PipelineError) {
        try await ingest([record], strict: true)
    }

    /// Validates and stores records in order, in one transaction, then applies queued watch items
    /// of the known kinds. A record that breaks a rule is rejected with the reason in the thrown
    /// `.rejected` errors (its index + 1 as the "line"); with `strict`, nothing is stored then,
    /// otherwise the valid records are.
    @discardableResult
    public func ingest(_ records: [InputRecord], strict: Bool = false) async throws(PipelineError) -> IngestReport {
        let users = Array(Set(records.map(\.user)))
        let zones = StoredZones(
            names: try await storage { (store) throws(StorageError) in try await store.timeZoneNames(of: users) })
        var planner = IngestPlanner(
            decoder: nil, now: clock.now, zones: zones, queueHadKnownItems: try await queueHoldsKnownItems())
        var planned: [PlannedWrite] = []
        for (index, record) in records.enumerated() { planner.plan(record, line: index + 1, into: &planned) }
        planner.finish(into: &planned)
        let plan = planned
        let rejections = RejectionLog()
        let report: IngestReport
        do {
            report = try await store.batch { store in
                var writer = IngestWriter(strict: strict)
                for item in plan { try writer.write(item, into: store, rejected: rejections.append) }
                try writer.flush(into: store, rejected: rejections.append)
                return try writer.finish()
            }
        } catch let error as StorageError {
            throw .storage(error)
        } catch is StrictRollback {
            throw .rejected(rejections.errors)
        } catch {
            preconditionFailure("unexpected error: \(error)")
        }
        var finished = report
        try await moveCalendarRequests(of: report.calendarInputs.changedUsers)
        try await drain(after: &finished)
        if !rejections.errors.isEmpty { throw .rejected(rejections.errors) }
        return finished
    }

    /// Reads JSON Lines (DESIGN §7) from `source` and stores them, streaming: memory does not grow
    /// with the input. Each rejected line is passed to `onRejected` as `line N: field: problem`,
    /// and the good lines around it are kept. Then applies queued watch items of the known kinds.
    ///
    /// Input is read and checked outside any transaction, and written in short transactions of at
    /// most `IngestBatching.records` records, committed as soon as the input has nothing more ready:
    /// an ingestion waiting for a slow pipe holds no lock, and what it has read is stored.
    ///
    /// With `strict`, any rejection stores nothing: the whole input is checked first (a stream is
    /// spooled to an unlinked private file to be read twice), then written in one transaction.
    ///
    /// Two threads share the work: one reads, decodes, checks and groups the lines (an `IngestPlanner`),
    /// the other writes what it planned.
    public func ingestJSONLines(
        from source: JSONLinesReader.Source, strict: Bool = false,
        onRejected: @escaping @Sendable (IngestionError) -> Void
    ) async throws(PipelineError) -> IngestReport {
        let now = clock.now
        let planner = IngestPlanner(
            decoder: RecordDecoder(defaultEnqueuedAt: now), now: now, zones: StoredZones(),
            lookup: ReaderZoneLookup(store: store), queueHadKnownItems: try await queueHoldsKnownItems())
        var report: IngestReport
        do {
            if strict {
                let input = try await RereadableInput.reading(source)
                let checked = try await Self.check(
                    ConcurrentLineReader(source: input.source, processor: planner), onRejected)
                guard checked.rejected == 0 else { return checked }
                let plans = ConcurrentLineReader(source: try input.rewound(), processor: planner)
                defer { plans.cancel() }
                report = try await store.batch { store in
                    var writer = IngestWriter(strict: true)
                    while let chunk = try plans.nextBlocking() {
                        for item in chunk { try writer.write(item, into: store, rejected: onRejected) }
                    }
                    try writer.flush(into: store, rejected: onRejected)
                    return try writer.finish()
                }
            } else {
                let plans = ConcurrentLineReader(source: source, processor: planner)
                defer { plans.cancel() }
                report = try await writeInBatches(plans, onRejected: onRejected)
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
        try await moveCalendarRequests(of: report.calendarInputs.changedUsers)
        let queued = report.stored["watch", default: 0] - report.storedWithDay.values.reduce(0, +)
        if queued >= IngestBatching.queueStatisticsItems {
            do {
                try await store.refreshQueueStatistics()
            } catch {
                log.log(.warning, "ingest: the watch queue's statistics were not refreshed (\(error)); draining anyway")
            }
        }
        try await drain(after: &report)
        return report
    }

    /// Applies the queued watch items of the known kinds after an ingestion, and reports them with the items
    /// the ingestion stored with their day instead of queueing them.
    private func drain(after report: inout IngestReport) async throws(PipelineError) {
        report.drained = try await drainWatchQueue()
        report.drained.applied.merge(report.storedWithDay, uniquingKeysWith: +)
    }

    /// Whether the watch queue holds an item of a kind this version applies: an ingestion that starts with
    /// one queues every item, in order behind it (`IngestPlanner.withholds`).
    private func queueHoldsKnownItems() async throws(PipelineError) -> Bool {
        let kinds = WatchKind.allCases.map(\.rawValue)
        return try await storage { (store) throws(StorageError) in
            !(try await store.watchItems(kinds: kinds, limit: 1)).isEmpty
        }
    }

    /// Writes planned input in short transactions: one ends when it holds `IngestBatching.records`
    /// records, has been collecting for `IngestBatching.interval`, or the input has nothing more
    /// ready. Reading waits outside them.
    private func writeInBatches(
        _ plans: ConcurrentLineReader<PlannedWrite>, onRejected: @escaping @Sendable (IngestionError) -> Void
    ) async throws -> IngestReport {
        var writer = IngestWriter(strict: false)
        // The reader's chunks as they came: gathering their items into one array would copy every item.
        var pending: [[PlannedWrite]] = []
        var pendingCount = 0
        var collectingSince = ContinuousClock.now
        func flush() async throws {
            guard !pending.isEmpty else { return }
            let chunks = pending
            pending.removeAll(keepingCapacity: true)
            pendingCount = 0
            writer = try await store.batch { [writer] store in
                var writer = writer
                for chunk in chunks {
                    for item in chunk { try writer.write(item, into: store, rejected: onRejected) }
                }
                try writer.flush(into: store, rejected: onRejected)
                return writer
            }
            writer.sinceCheckpoint = 0  // each batch is its own transaction
            log.log(
                .info,
                "ingest: \(writer.report.records) records read, \(writer.report.storedCount) stored, "
                    + "\(writer.report.rejected) rejected")
        }
        while let chunk = try await plans.next() {
            if pending.isEmpty { collectingSince = .now }
            pending.append(chunk)
            pendingCount += chunk.reduce(0) { $0 + $1.records }
            if pendingCount >= IngestBatching.records || !plans.hasReadyChunk
                || collectingSince.duration(to: .now) >= IngestBatching.interval
            {
                try await flush()
            }
        }
        try await flush()
        return try writer.finish()
    }

    /// Plans the whole input without writing, passing each rejection on: a strict ingestion's
    /// first pass. The report counts the records and rejections and stores nothing.
    private static func check(
        _ plans: ConcurrentLineReader<PlannedWrite>, _ onRejected: @Sendable (IngestionError) -> Void
    ) async throws -> IngestReport {
        defer { plans.cancel() }
        var reader = IngestWriter(strict: true)
        while let chunk = try await plans.next() {
            for item in chunk { reader.read(item, rejected: onRejected) }
        }
        var report = reader.report
        report.committed = report.rejected == 0
        return report
    }
}

/// The stored zones a streamed ingestion's planner asks for (`IngestPlanner`), read on a connection of its own,
/// opened when first asked: the store's connection is busy writing what the planner hands on (a strict
/// ingestion's transaction waits for the planner), and most inputs never ask (`FutureDayRule.needsZone`), so
/// an ingestion reads the zones of the users its input names, not those of every user the database holds.
final class ReaderZoneLookup: StoredZoneLookup {
    private let store: Store
    private let reader = Locked<LogReader?>(nil)

    init(store: Store) {
        self.store = store
    }

    /// Called on the planner's reading thread, which waits here while the reader's own thread reads.
    func storedZoneName(of user: UserID) throws(FieldError) -> String? {
        let answer = Locked<Result<String?, StorageError>?>(nil)
        let read = DispatchSemaphore(value: 0)
        do {
            let reader = try reader.withLock { (reader) throws(StorageError) in
                if reader == nil { reader = try store.logReader() }
                return reader!
            }
            Task {
                let result: Result<String?, StorageError>
                do throws(StorageError) {
                    result = .success(try await reader.timeZoneNames(of: [user])[user])
                } catch {
                    result = .failure(error)
                }
                answer.withLock { $0 = result }
                read.signal()
            }
            read.wait()
            return try answer.withLock { $0! }.get()
        } catch {
            throw FieldError(
                "user",
                "\(user)'s stored time zone, which a day after today in UTC is checked in, could not be read "
                    + "(\(error))")
        }
    }
}

/// Thrown inside a strict batch to roll it back; carries what the batch found.
struct StrictRollback: Error {
    var report: IngestReport
}

/// Collects rejections from inside a batch for the batch API.
final class RejectionLog: Sendable {
    private let storage = Locked<[IngestionError]>([])

    var errors: [IngestionError] { storage.withLock { $0 } }

    @Sendable func append(_ error: IngestionError) {
        storage.withLock { $0.append(error) }
    }
}
