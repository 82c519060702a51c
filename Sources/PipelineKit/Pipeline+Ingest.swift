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

/// DESIGN §2: a row for tomorrow may exist (time-zone travel, clock skew), but a row more than one
/// day after the user's today is an error. Each user's last allowed day (their tomorrow) is worked out
/// once, when their zone is set; a user without one is checked in UTC.
struct FutureDayRule {
    let now: Date
    private var lastAllowedDay: [UserID: (day: Day, zone: TimeZone)] = [:]

    init(now: Date) {
        self.now = now
    }

    func knows(_ user: UserID) -> Bool {
        lastAllowedDay[user] != nil
    }

    mutating func setZone(_ zone: TimeZone, of user: UserID) {
        lastAllowedDay[user] = (Day(containing: now, in: zone).adding(days: 1), zone)
    }

    func check(_ day: Day, field: String, user: UserID) throws(FieldError) {
        let last = lastAllowedDay[user] ?? (Day(containing: now, in: .utc).adding(days: 1), .utc)
        guard day > last.day else { return }
        throw FieldError(
            field,
            "is more than one day after today (\(last.day.adding(days: -1)) in \(last.zone.ianaName)); "
                + "future days are refused")
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

/// Users' stored time zones as ingestion starts.
struct StoredZones {
    var known: [UserID: TimeZone] = [:]
    /// Users whose stored zone does not resolve, with its name: their days cannot be checked until a
    /// user record sets the zone again.
    var unresolved: [UserID: String] = [:]
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

/// What the writer does with a piece of planned input.
enum PlannedWrite: Sendable {
    /// Consecutive user-days, each from consecutive entry and health records.
    case days(PlannedDays)
    /// A user, settings or watch record.
    case record(InputRecord, line: Int)
    /// A line refused before it reached the database.
    case rejected(line: Int, FieldError)

    /// The input records it stands for.
    var records: Int {
        switch self {
        case .days(let days): days.records
        case .record, .rejected: 1
        }
    }
}

/// One user-day being planned from consecutive entry and health records, with the watch items of a known
/// kind for that day that the input had among them.
struct PlannedDay: Sendable {
    var write: DayWrite
    /// The day's entry and health lines, with their kinds.
    var lines: DayLines
    /// The watch items read among the day's records whose payload is for this day, by line, with the entry
    /// each stands for. Each is merged into the day after its records, which is what its drain does to the
    /// stored day, and is either queued as every watch item is (the drain then finds its effect there and
    /// writes nothing, `SQLiteDriver.upsertNonClearingEntries`) or, when nothing could be applied after it,
    /// withheld from the queue (`IngestPlanner.withhold`): then it carries its submission, which the writer
    /// queues after all if the database refuses the merged day. One case ends otherwise for a queued item: a
    /// user record later in the same input that moves the user's zone far enough west makes the drain refuse
    /// the item's day as too far ahead (it stays queued, and is retried), while its value, like the day's own
    /// records, is already stored.
    var watchItems: [PlannedItem] = []
    /// The fields of watch items withheld from the queue in earlier days of the same user-day, which this
    /// day's records leave unchanged: the drain would have applied those items again after them.
    var leftUnchanged: PersonalFields = []

    typealias PlannedItem = (line: Int, entry: UserEntry, withheld: WatchSubmission?)
}

/// A user and a day, as a dictionary key.
struct UserDay: Hashable, Sendable {
    var user: UserID
    var day: Day
}

/// Planned user-days handed to the writer together, in input order, as the store stages them: the writing
/// thread takes them a batch at a time instead of unpacking each one (a copy and a release a day), and the
/// watch items are merged on the reading thread.
struct PlannedDays: Sendable {
    /// Days handed over at once, unless a rejected line, or the input's end or pause, comes first.
    static let limit = 256

    private(set) var writes: [DayWrite] = []
    private(set) var lines: [DayLines] = []
    /// The days with watch items merged in (`PlannedDay.watchItems`), by index in `writes`, each with the
    /// write its records alone made: what is staged instead for an item the database refuses to queue,
    /// or when it refuses the merged write.
    private(set) var merges: [Merge] = []
    typealias Merge = (index: Int, unmerged: DayWrite, items: [PlannedDay.PlannedItem])
    /// The entry and health records of the days, and the watch items withheld from the queue.
    private(set) var records = 0

    var count: Int { writes.count }

    mutating func append(_ day: PlannedDay) {
        var write = day.write
        write.leaveUnchanged(day.leftUnchanged)
        if day.watchItems.isEmpty {
            writes.append(write)
        } else {
            var merged = write
            for item in day.watchItems {
                merged.merge(item.entry)
                if item.withheld != nil { records += 1 }
            }
            merges.append((writes.count, write, day.watchItems))
            writes.append(merged)
        }
        lines.append(day.lines)
        records += day.lines.count
    }
}

/// A planned day's entry and health lines, in input order: one or two in almost every input, held without an
/// array of their own (an allocation a day, freed on the writing thread, was a measurable part of its work).
struct DayLines: Sequence, Sendable {
    enum Kind: Sendable {
        case entry, health

        var typeName: String {
            switch self {
            case .entry: "entry"
            case .health: "health"
            }
        }
    }

    typealias Element = (number: Int, kind: Kind)

    private(set) var count = 1
    /// How many of the lines are entries.
    private(set) var entries: Int
    private let first: Element
    private var second: Element?
    private var rest: [Element] = []

    init(_ number: Int, _ kind: Kind) {
        first = (number, kind)
        entries = kind == .entry ? 1 : 0
    }

    mutating func append(_ number: Int, _ kind: Kind) {
        if second == nil { second = (number, kind) } else { rest.append((number, kind)) }
        count += 1
        if kind == .entry { entries += 1 }
    }

    struct Iterator: IteratorProtocol {
        let lines: DayLines
        var index = 0

        mutating func next() -> Element? {
            defer { index += 1 }
            switch index {
            case 0: return lines.first
            case 1: return lines.second
            default: return index - 2 < lines.rest.count ? lines.rest[index - 2] : nil
            }
        }
    }

    func makeIterator() -> Iterator {
        Iterator(lines: self)
    }
}

/// The rules of an ingestion that need no database, run on the reading thread: decoding, the
/// bounds, the future-day rule (with the users' time zones read before the input starts, and those
/// the input itself sets), and grouping a day's consecutive records into one `DayWrite` — most
/// inputs carry a day's entry and its health sync side by side, and one upsert per day halves the
/// writer's work.
struct IngestPlanner: LineProcessor {
    /// The JSON Lines decoder; `nil` when records arrive already decoded (the library's batch API).
    let decoder: RecordDecoder?
    let now: Date

    init(decoder: RecordDecoder?, now: Date, zones: StoredZones, queueHadKnownItems: Bool) {
        self.decoder = decoder
        self.now = now
        withholds = !queueHadKnownItems
        futureDays = FutureDayRule(now: now)
        for (user, zone) in zones.known { futureDays.setZone(zone, of: user) }
        unresolvedZones = zones.unresolved
    }
    /// Each known user's time zone, and the last day they may write in it (their tomorrow).
    var futureDays: FutureDayRule
    /// Users whose stored zone does not resolve (and no user record in the input has set it again),
    /// with its name: their days cannot be checked, and UTC would be a guess.
    var unresolvedZones: [UserID: String] = [:]
    var pending: PlannedDay?
    /// Days planned and not yet handed on (`PlannedWrite.days`).
    var days = PlannedDays()
    /// How many copies of each queued-as-is watch item (by a hash of user, kind and payload) the
    /// input has had so far.
    var unknownItemCopies: [UInt64: Int] = [:]

    /// Whether a watch item merged into its day may be withheld from the queue (`withhold`): not when the
    /// queue held items of a known kind as the input began (the drain applies them in queue order, so an
    /// earlier item of the same day would be applied after the withheld one), nor once `queuedDays` is full.
    var withholds: Bool
    /// The fields of the items withheld from the queue, by user-day: every later day of the input for the
    /// same user-day leaves them unchanged (`PlannedDay.leftUnchanged`), since the drain would have applied
    /// the items again after it.
    var withheld: [UserDay: PersonalFields] = [:]
    /// The user-days of the known-kind items this input queued so far: a later item of such a day is queued
    /// too, since the drain applies the earlier one after everything the input stored.
    var queuedDays: Set<UserDay> = []
    /// User-days held in `withheld` and in `queuedDays`, each: about 5 MB at most. A bulk input with more
    /// watch items than this queues the rest, as every item was before items were withheld.
    static let trackedDays = 65_536

    mutating func process(_ number: Int, _ line: JSONLinesReader.Line, into output: inout [PlannedWrite]) {
        guard let decoder else { preconditionFailure("a planner without a decoder plans records, not lines") }
        switch line {
        case .tooLong:
            handOn(.rejected(line: number, JSONLinesReader.tooLongError), into: &output)
        case .text(let bytes):
            let record: InputRecord
            do throws(FieldError) {
                record = try decoder.decode(line: bytes)
            } catch {
                handOn(.rejected(line: number, error), into: &output)
                return
            }
            plan(record, line: number, into: &output)
        }
    }

    mutating func plan(_ record: InputRecord, line: Int, into output: inout [PlannedWrite]) {
        let watchEntry: UserEntry?
        do throws(FieldError) {
            watchEntry = try validate(record)
        } catch {
            handOn(.rejected(line: line, error), into: &output)
            return
        }
        switch record {
        case .entry(let entry):
            if let current = pending, current.write.user == entry.user, current.write.day == entry.day {
                pending!.write.merge(entry)
                pending!.lines.append(line, .entry)
            } else {
                startDay(DayWrite(entry), DayLines(line, .entry), into: &output)
            }
        case .health(let metrics):
            if let current = pending, current.write.user == metrics.user, current.write.day == metrics.day {
                pending!.write.merge(metrics)
                pending!.lines.append(line, .health)
            } else {
                startDay(DayWrite(metrics), DayLines(line, .health), into: &output)
            }
        case .user(let update):
            // Other tables: their order relative to the held-back day does not matter.
            if let zone = update.timeZone {
                futureDays.setZone(zone, of: update.id)
                unresolvedZones[update.id] = nil
            }
            output.append(.record(record, line: line))
        case .watch(var item) where WatchKind(rawValue: item.kind) == nil:
            // Stays queued: numbered among its identical copies in this input (`WatchSubmission.occurrence`).
            let key = FNV1a.hash([item.user.rawValue, item.kind, item.payload].joined(separator: "\u{0}"))
            let occurrence = (unknownItemCopies[key] ?? 0) + 1
            unknownItemCopies[key] = occurrence
            item.occurrence = occurrence
            output.append(.record(.watch(item), line: line))
        case .watch(let item):
            guard let entry = watchEntry else {
                output.append(.record(record, line: line))
                return
            }
            let key = UserDay(user: item.user, day: entry.day)
            let merged = pending.map { $0.write.user == item.user && $0.write.day == entry.day } ?? false
            if merged && withhold(entry, of: key) {
                pending!.watchItems.append((line, entry, item))
                return
            }
            if merged { pending!.watchItems.append((line, entry, nil)) }
            if withholds {
                queuedDays.insert(key)
                if queuedDays.count >= Self.trackedDays { withholds = false }
            }
            output.append(.record(record, line: line))
        case .settings:
            output.append(.record(record, line: line))
        }
    }

    mutating func finish(into output: inout [PlannedWrite]) {
        flush(into: &output)
        handOnDays(into: &output)
    }

    /// Whether the item `entry` stands for, merged into the day being planned, is withheld from the queue:
    /// its effect is stored with the day, in the same transaction, and the drain has nothing to do for it.
    /// That leaves the day as queueing it would when the drain would apply nothing after it: no item of the
    /// same day was queued before it (in this input, or before it began: `withholds`), and a later day of
    /// the input for the same user-day leaves its fields unchanged (`withheld`), as the drain would have set
    /// them again. Items queued later are applied after it either way. (Another process writing the same
    /// user-day at the same time may see its write land before or after the item's, as with any two writers.)
    private mutating func withhold(_ entry: UserEntry, of key: UserDay) -> Bool {
        guard withholds, !entry.changesMetrics, !queuedDays.contains(key) else { return false }
        if let fields = withheld[key] {
            withheld[key] = fields.union(entry.personalFields)
            return true
        }
        guard withheld.count < Self.trackedDays else { return false }
        withheld[key] = entry.personalFields
        return true
    }

    /// A stalled input must not hold back the day read last: it is written now, and a record of the
    /// same day arriving later merges into it in the database.
    mutating func caughtUp(into output: inout [PlannedWrite]) {
        flush(into: &output)
        handOnDays(into: &output)
    }

    /// Ends the day being planned and starts planning `write`, which leaves the fields of the items withheld
    /// for its user-day so far unchanged (a health sync has none of them; a later entry of the day may).
    private mutating func startDay(_ write: DayWrite, _ lines: DayLines, into output: inout [PlannedWrite]) {
        flush(into: &output)
        pending = PlannedDay(write: write, lines: lines)
        if !withheld.isEmpty { pending!.leftUnchanged = withheld[UserDay(user: write.user, day: write.day)] ?? [] }
    }

    /// Ends the day being planned: it joins the days to hand on.
    private mutating func flush(into output: inout [PlannedWrite]) {
        guard let day = pending else { return }
        pending = nil
        days.append(day)
        if days.count >= PlannedDays.limit { handOnDays(into: &output) }
    }

    private mutating func handOnDays(into output: inout [PlannedWrite]) {
        guard days.count > 0 else { return }
        output.append(.days(days))
        days = PlannedDays()
    }

    /// Hands on a rejected line after the days planned before it, so that rejections are reported in line
    /// order. (A user, settings or watch record does not wait for the days: it writes other rows, and the
    /// writer holds days back anyway. The day being planned stays either way.)
    private mutating func handOn(_ rejection: PlannedWrite, into output: inout [PlannedWrite]) {
        handOnDays(into: &output)
        output.append(rejection)
    }

    /// Checks `record` against the rules that need no database; returns the entry a watch item of a
    /// known kind stands for.
    private func validate(_ record: InputRecord) throws(FieldError) -> UserEntry? {
        switch record {
        case .entry(let entry):
            // Decoded lines were checked against the bounds by the decoder already.
            if decoder == nil {
                do { try entry.validate() } catch { throw FieldError(error) }
            }
            try checkDay(entry.day, field: "day", user: entry.user)
        case .health(let metrics):
            if decoder == nil {
                do { try metrics.validate() } catch { throw FieldError(error) }
            }
            try checkDay(metrics.day, field: "day", user: metrics.user)
        case .watch(let item):
            if let problem = Field.textProblem(item.kind) { throw FieldError("kind", problem) }
            guard let kind = WatchKind(rawValue: item.kind) else { return nil }
            let entry = try WatchPayload.entry(
                for: WatchItem(id: 0, user: item.user, kind: kind.rawValue, payload: item.payload, enqueuedAt: now))
            if let day = entry?.day { try checkDay(day, field: "payload.day", user: item.user) }
            return entry
        case .settings(let update):
            for case (let key, let value?) in update.changes {
                do { try key.validate(value) } catch { throw FieldError(error) }
            }
        case .user:
            break
        }
        return nil
    }

    /// DESIGN §2: a row may be for tomorrow in the user's zone (UTC for a new user), not later.
    private func checkDay(_ day: Day, field: String, user: UserID) throws(FieldError) {
        if let name = unresolvedZones[user] {
            throw FieldError(
                "user",
                "\(user)'s stored time zone '\(name)' is no IANA time zone this machine's tzdata knows; "
                    + "set it with a user record (\"timeZone\") before their days")
        }
        try futureDays.check(day, field: field, user: user)
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
    /// The lines of watch items the database refused to queue: not merged into their day either.
    private var refusedItemLines: Set<Int> = []

    /// Days, or watch items, staged at once: several of SQLite's many-row inserts (`Store.stage(_: [DayWrite])`,
    /// `Store.stage(_: [WatchSubmission])`).
    static let stagedAtOnce = 256

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

    /// Writes `item`, or holds it back when it is a day or a watch item: those are staged many at a time
    /// (`flush`), each kind in input order. Other records do not wait for them — a user, settings or watch
    /// record writes other rows than a day's, a day's or item's user is ensured as it is staged, and the
    /// queue is drained only after the input is stored, so the rows end the same — but a line refused
    /// before the database waits, so rejected lines are reported in line order. (A line the database
    /// itself refuses, which the decoder's bounds should make impossible, may be reported after a later
    /// record's.)
    mutating func write(_ item: PlannedWrite, into store: isolated Store, rejected: (IngestionError) -> Void) throws {
        switch item {
        case .days(let days):
            read(item, rejected: rejected)
            pendingDays.append(days)
            pendingDayCount += days.count
            sinceCheckpoint += days.records
            if pendingDayCount >= IngestWriter.stagedAtOnce { try flush(into: store, rejected: rejected) }
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
            if let refusal = try store.stage(record) {
                // The decoder checks every bound the schema does, so this is a disagreement between the two.
                reject(
                    FieldError(record.typeName, "refused by the database (\(refusal))"), line: line, rejected: rejected)
                return
            }
            counted.stored[record.typeName, default: 0] += 1
            counted.calendarInputs.note(record)
            sinceCheckpoint += 1
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
        // The items first: a day's merged items were read before it, so each is known queued or refused.
        try flushItems(into: store, rejected: rejected)
        try flushDays(into: store, rejected: rejected)
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

    /// Stages the held-back batches of days in order, each as the planner handed it on.
    private mutating func flushDays(into store: isolated Store, rejected: (IngestionError) -> Void) throws {
        for days in pendingDays {
            // An item the database refused to queue is taken out of its day again.
            var writes = days.writes
            for (index, write, items) in days.merges {
                guard items.contains(where: { refusedItemLines.contains($0.line) }) else { continue }
                writes[index] = write
                for item in items where !refusedItemLines.contains(item.line) { writes[index].merge(item.entry) }
            }
            var refusals = Dictionary(uniqueKeysWithValues: try store.stage(writes).map { ($0.index, $0.refusal) })
            let refusedMerges = Set(days.merges.map(\.index).filter { refusals[$0] != nil })
            try Self.restageRefused(days.merges, of: writes, refusals: &refusals, into: store)
            try settleWithheld(days.merges, refused: refusedMerges, into: store, rejected: rejected)
            for (index, lines) in days.lines.enumerated() {
                if let refusal = refusals[index] {
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
        }
        pendingDays.removeAll(keepingCapacity: true)
        pendingDayCount = 0
    }

    /// Stages each merged day of `writes` the database refused as its records alone left it (its items stay
    /// queued, or are queued by `settleWithheld`, and their drain reports why they fail), then again each
    /// later day of `writes` for the same user-day: applying a `DayWrite` again after another leaves the row
    /// it leaves applied once after it, so the day ends as staged in order. (Later batches are staged after
    /// this one anyway.)
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
        precondition(pendingDays.isEmpty && pendingItems.isEmpty, "records held back were never written")
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

extension FieldError {
    init(_ error: DomainError) {
        switch error {
        case .invalidValue(let field, let problem): self.init(field, problem)
        }
    }
}
