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
        let zones = try await timeZones(of: Set(records.map(\.user)))
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
        try await moveCalendarRequests(of: report.calendarInputs.changedUsers(before: zones))
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
        let zones = try await timeZones(of: nil)
        let planner = IngestPlanner(
            decoder: RecordDecoder(defaultEnqueuedAt: now), now: now, zones: zones,
            queueHadKnownItems: try await queueHoldsKnownItems())
        var report: IngestReport
        do {
            if strict {
                let input = try RereadableInput(source)
                let checked = try Self.check(ConcurrentLineReader(source: input.source, processor: planner), onRejected)
                guard checked.rejected == 0 else { return checked }
                let plans = ConcurrentLineReader(source: try input.rewound(), processor: planner)
                defer { plans.cancel() }
                report = try await store.batch { store in
                    var writer = IngestWriter(strict: true)
                    while let chunk = try plans.next() {
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
        try await moveCalendarRequests(of: report.calendarInputs.changedUsers(before: zones))
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
        while let chunk = try plans.next() {
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
    ) throws -> IngestReport {
        defer { plans.cancel() }
        var reader = IngestWriter(strict: true)
        while let chunk = try plans.next() {
            for item in chunk { reader.read(item, rejected: onRejected) }
        }
        var report = reader.report
        report.committed = report.rejected == 0
        return report
    }

    /// The time zones of `users` the database knows (all of them when `nil`), for the future-day
    /// rule, with the stored names of those that do not resolve.
    func timeZones(of users: Set<UserID>? = nil) async throws(PipelineError) -> StoredZones {
        var zones = StoredZones()
        if let users {
            for id in users {
                do {
                    if let user = try await user(id) { zones.known[id] = user.timeZone }
                } catch .storage(.unknownTimeZone(_, let name)) {
                    zones.unresolved[id] = name
                }
            }
        } else {
            for (id, name) in try await storage({ (store) throws(StorageError) in try await store.timeZoneNames() }) {
                if let zone = TimeZone.iana(name) { zones.known[id] = zone } else { zones.unresolved[id] = name }
            }
        }
        return zones
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

/// How a streamed non-strict ingestion cuts its transactions: short enough that another process's
/// write waits for at most a fraction of a second, long enough that commits cost little.
enum IngestBatching {
    static let records = 10_000
    static let interval: Duration = .milliseconds(500)
    /// Watch items an input must queue for its drain to refresh the queue's statistics first
    /// (`Store.refreshQueueStatistics`): far more than a day's input of a few users, few enough that a
    /// bulk load's drain never pages through a queue its planner thinks empty.
    static let queueStatisticsItems = 10_000
}

/// Writes planned input inside the store's transaction, counting what was stored and rejected, and
/// commits a long non-strict input in steps.
struct IngestWriter {
    let strict: Bool
    /// What was read, stored and rejected, the days' entry and health records apart.
    private var counted = IngestReport()
    /// Entry and health records stored in days: counted here, not by name in `counted.stored`, since every
    /// day has one or two and hashing their names was a measurable part of the writing thread.
    private var storedDayRecords = (entries: 0, health: 0)
    var sinceCheckpoint = 0
    /// Batches of days `write` has held back for `flush`, as the planner handed them on.
    private var pendingDays: [PlannedDays] = []
    private var pendingDayCount = 0
    /// Watch items `write` has held back for `flush`, with their lines.
    private var pendingItems: [WatchSubmission] = []
    private var pendingItemLines: [Int] = []
    /// User and settings records `write` has held back for `flush`, with their lines.
    private var pendingRecords: [(record: InputRecord, line: Int)] = []
    /// The lines of watch items the database refused to queue: not merged into their day either.
    private var refusedItemLines: Set<Int> = []

    /// Days, or watch items, staged at once: several of SQLite's many-row inserts (`Store.stage(_: [DayWrite])`,
    /// `Store.stage(_: [WatchSubmission])`). Days wait for more when the store writes more in one statement
    /// (`daysStagedAtOnce`).
    static let stagedAtOnce = 256

    /// Days held back before they are staged: at least one statement's worth of the store's (PostgreSQL's COPY
    /// takes thousands).
    private static func daysStagedAtOnce(_ store: isolated Store) -> Int {
        max(stagedAtOnce, store.daysPerStatement)
    }

    var report: IngestReport {
        var report = counted
        if storedDayRecords.entries > 0 { report.stored["entry", default: 0] += storedDayRecords.entries }
        if storedDayRecords.health > 0 { report.stored["health", default: 0] += storedDayRecords.health }
        return report
    }

    /// Records per transaction in a non-strict ingestion: large enough that commits cost nothing
    /// measurable, small enough that a crash loses at most this much unfinished work.
    static let checkpointInterval = 50_000

    init(strict: Bool) {
        self.strict = strict
    }

    /// Counts `item` as read, and reports it if it was refused before reaching the database: all a
    /// strict ingestion's first pass does.
    mutating func read(_ item: PlannedWrite, rejected: (IngestionError) -> Void) {
        counted.records += item.records
        if case .rejected(let line, let error) = item { reject(error, line: line, rejected: rejected) }
    }

    /// Holds `item` back to be staged many at a time (`flush`), each kind in input order: days, watch items,
    /// and user and settings records. The kinds do not wait for each other — a user, settings or watch record
    /// writes other rows than a day's, a day's or item's user is ensured as it is staged, and the queue is
    /// drained only after the input is stored, so the rows end the same — but a line refused before the database
    /// waits for all of them, so rejected lines are reported in line order. (A line the database itself refuses,
    /// which the decoder's bounds should make impossible, may be reported after a later record's.)
    mutating func write(_ item: PlannedWrite, into store: isolated Store, rejected: (IngestionError) -> Void) throws {
        switch item {
        case .days(let days):
            read(item, rejected: rejected)
            pendingDays.append(days)
            pendingDayCount += days.count
            sinceCheckpoint += days.records
            if pendingDayCount >= Self.daysStagedAtOnce(store) { try flush(into: store, rejected: rejected) }
        case .rejected:
            try flush(into: store, rejected: rejected)
            read(item, rejected: rejected)
            return
        case .record(.watch(let watchItem), let line):
            read(item, rejected: rejected)
            pendingItems.append(watchItem)
            pendingItemLines.append(line)
            sinceCheckpoint += 1
            if pendingItems.count >= IngestWriter.stagedAtOnce { try flush(into: store, rejected: rejected) }
        case .record(let record, let line):
            read(item, rejected: rejected)
            pendingRecords.append((record, line))
            sinceCheckpoint += 1
            if pendingRecords.count >= IngestWriter.stagedAtOnce { try flushRecords(into: store, rejected: rejected) }
        }
        if !strict, sinceCheckpoint >= IngestWriter.checkpointInterval {
            try flush(into: store, rejected: rejected)
            try store.checkpoint()
            sinceCheckpoint = 0
        }
    }

    /// Stages the watch items and days held back by `write`. Call it before the batch ends: `finish()`
    /// refuses to report records never written.
    mutating func flush(into store: isolated Store, rejected: (IngestionError) -> Void) throws {
        try flushRecords(into: store, rejected: rejected)
        // The items first: a day's merged items were read before it, so each is known queued or refused.
        try flushItems(into: store, rejected: rejected)
        try flushDays(into: store, rejected: rejected)
    }

    private mutating func flushRecords(into store: isolated Store, rejected: (IngestionError) -> Void) throws {
        guard !pendingRecords.isEmpty else { return }
        let refusals = Dictionary(
            uniqueKeysWithValues: try store.stage(pendingRecords.map(\.record)).map { ($0.index, $0.refusal) })
        for (index, (record, line)) in pendingRecords.enumerated() {
            if let refusal = refusals[index] {
                // The decoder checks every bound the schema does, so this is a disagreement between the two.
                reject(
                    FieldError(record.typeName, "refused by the database (\(refusal))"), line: line, rejected: rejected)
            } else {
                counted.stored[record.typeName, default: 0] += 1
                counted.calendarInputs.note(record)
            }
        }
        pendingRecords.removeAll(keepingCapacity: true)
    }

    private mutating func flushItems(into store: isolated Store, rejected: (IngestionError) -> Void) throws {
        guard !pendingItems.isEmpty else { return }
        let refusals = Dictionary(uniqueKeysWithValues: try store.stage(pendingItems).map { ($0.index, $0.refusal) })
        for (index, line) in pendingItemLines.enumerated() {
            if let refusal = refusals[index] {
                refusedItemLines.insert(line)
                reject(FieldError("watch", "refused by the database (\(refusal))"), line: line, rejected: rejected)
            } else {
                counted.stored["watch", default: 0] += 1
            }
        }
        pendingItems.removeAll(keepingCapacity: true)
        pendingItemLines.removeAll(keepingCapacity: true)
    }

    /// Stages the held-back batches of days in order: each as the planner handed it on when the store writes fewer
    /// days to a statement than a batch holds (SQLite), consecutive batches together up to a statement's worth
    /// when it writes more (PostgreSQL).
    private mutating func flushDays(into store: isolated Store, rejected: (IngestionError) -> Void) throws {
        var start = 0
        while start < pendingDays.count {
            var end = start + 1
            var count = pendingDays[start].count
            while end < pendingDays.count, count + pendingDays[end].count <= store.daysPerStatement {
                count += pendingDays[end].count
                end += 1
            }
            try stageDays(pendingDays[start..<end], into: store, rejected: rejected)
            start = end
        }
        pendingDays.removeAll(keepingCapacity: true)
        pendingDayCount = 0
    }

    /// Stages consecutive batches of days in one call (a batch alone is staged as it is, without copying its days).
    private mutating func stageDays(
        _ batches: ArraySlice<PlannedDays>, into store: isolated Store, rejected: (IngestionError) -> Void
    ) throws {
        var writes = batches.count == 1 ? batches[batches.startIndex].writes : Array(batches.map(\.writes).joined())
        // The merged days, by index in `writes`.
        var merges: [PlannedDays.Merge] = []
        var offset = 0
        for days in batches {
            merges += days.merges.map { ($0.index + offset, $0.unmerged, $0.items) }
            offset += days.count
        }
        // An item the database refused to queue is taken out of its day again.
        for (index, write, items) in merges {
            guard items.contains(where: { refusedItemLines.contains($0.line) }) else { continue }
            writes[index] = write
            for item in items where !refusedItemLines.contains(item.line) { writes[index].merge(item.entry) }
        }
        var refusals = Dictionary(uniqueKeysWithValues: try store.stage(writes).map { ($0.index, $0.refusal) })
        let refusedMerges = Set(merges.map(\.index).filter { refusals[$0] != nil })
        try Self.restageRefused(merges, of: writes, refusals: &refusals, into: store)
        try settleWithheld(merges, refused: refusedMerges, into: store, rejected: rejected)
        offset = 0
        for days in batches {
            for (index, lines) in days.lines.enumerated() {
                if let refusal = refusals[offset + index] {
                    for line in lines {
                        reject(
                            FieldError(line.kind.typeName, "refused by the database (\(refusal))"),
                            line: line.number, rejected: rejected)
                    }
                    continue
                }
                storedDayRecords.entries += lines.entries
                storedDayRecords.health += lines.count - lines.entries
            }
            offset += days.count
        }
    }

    /// Stages each merged day of `writes` the database refused as its records alone left it (its items stay
    /// queued, or are queued by `settleWithheld`, and their drain reports why they fail), then again each
    /// later day of `writes` for the same user-day: applying a `DayWrite` again after another leaves the row
    /// it leaves applied once after it, so the day ends as staged in order. (Days a later call stages come after
    /// these anyway.)
    private static func restageRefused(
        _ merges: [PlannedDays.Merge], of writes: [DayWrite], refusals: inout [Int: StorageError],
        into store: isolated Store
    ) throws {
        for (index, unmerged, _) in merges where refusals[index] != nil {
            let day = writes[index]
            let later = (index + 1..<writes.count).filter { later in
                refusals[later] == nil && writes[later].user == day.user && writes[later].day == day.day
            }
            let again = try store.stage([unmerged] + later.map { writes[$0] })
            refusals[index] = nil
            for (position, refusal) in again { refusals[position == 0 ? index : later[position - 1]] = refusal }
        }
    }

    /// Counts the watch items withheld from the queue that were stored with their day, and queues those of
    /// days the database refused merged: their drain applies them, or reports why they fail. (Such an item is
    /// queued after the items of its batch; the decoder checks every bound the schema does, so a refused day
    /// is a disagreement between the two.)
    private mutating func settleWithheld(
        _ merges: [PlannedDays.Merge], refused: Set<Int>, into store: isolated Store,
        rejected: (IngestionError) -> Void
    ) throws {
        var queued: [(line: Int, item: WatchSubmission)] = []
        for (index, _, items) in merges {
            for case (let line, _, let item?) in items {
                if refused.contains(index) {
                    queued.append((line, item))
                } else {
                    counted.stored["watch", default: 0] += 1
                    counted.storedWithDay[item.kind, default: 0] += 1
                }
            }
        }
        guard !queued.isEmpty else { return }
        let refusals = Dictionary(
            uniqueKeysWithValues: try store.stage(queued.map(\.item)).map { ($0.index, $0.refusal) })
        for (index, (line, _)) in queued.enumerated() {
            if let refusal = refusals[index] {
                reject(FieldError("watch", "refused by the database (\(refusal))"), line: line, rejected: rejected)
            } else {
                counted.stored["watch", default: 0] += 1
            }
        }
    }

    mutating func reject(_ error: FieldError, line: Int, rejected: (IngestionError) -> Void) {
        counted.rejected += 1
        rejected(.rejectedLine(line: line, error))
    }

    func finish() throws -> IngestReport {
        precondition(
            pendingDays.isEmpty && pendingItems.isEmpty && pendingRecords.isEmpty,
            "records held back were never written")
        if strict, counted.rejected > 0 {
            var rolledBack = report
            rolledBack.committed = false
            rolledBack.stored = [:]
            rolledBack.storedWithDay = [:]
            rolledBack.calendarInputs = CalendarInputs()
            throw StrictRollback(report: rolledBack)
        }
        return report
    }
}
