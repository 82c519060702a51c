import Domain
import Foundation
import Ingestion
import Storage

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
        // Read before the records replace them: a zone a record changes moves its user's calendar requests.
        let zoned = pendingRecords.compactMap { pending -> UserID? in
            guard case .user(let update) = pending.record, update.timeZone != nil else { return nil }
            return update.id
        }
        let storedZones = zoned.isEmpty ? [:] : try store.timeZoneNames(of: zoned)
        let refusals = Dictionary(
            uniqueKeysWithValues: try store.stage(pendingRecords.map(\.record)).map { ($0.index, $0.refusal) })
        for (index, (record, line)) in pendingRecords.enumerated() {
            if let refusal = refusals[index] {
                // The decoder checks every bound the schema does, so this is a disagreement between the two.
                reject(
                    FieldError(record.typeName, "refused by the database (\(refusal))"), line: line, rejected: rejected)
            } else {
                counted.stored[record.typeName, default: 0] += 1
                counted.calendarInputs.note(record, storedZone: storedZones[record.user])
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
