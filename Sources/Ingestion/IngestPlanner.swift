public import Domain
public import Foundation

/// DESIGN §2: a row for tomorrow may exist (time-zone travel, clock skew), but a row more than one
/// day after the user's today is an error. Each user's last allowed day (their tomorrow) is worked out
/// once, when their zone is set; a user without one is checked in UTC.
public struct FutureDayRule: Sendable {
    public let now: Date
    private var lastAllowedDay: [UserID: (day: Day, zone: TimeZone)] = [:]
    /// Today in UTC: no zone is more than 12 hours behind it, so each user's tomorrow is this day or later.
    private let todayInUTC: Day

    public init(now: Date) {
        self.now = now
        todayInUTC = Day(containing: now, in: .utc)
    }

    /// Whether the user's zone decides if `day` may be written: not for a day on or before today in UTC, which
    /// is no later than tomorrow anywhere. Most days of any input are such: their users' zones need not be read.
    public func needsZone(_ day: Day) -> Bool {
        day > todayInUTC
    }

    public func knows(_ user: UserID) -> Bool {
        lastAllowedDay[user] != nil
    }

    public mutating func setZone(_ zone: TimeZone, of user: UserID) {
        lastAllowedDay[user] = (Day(containing: now, in: zone).adding(days: 1), zone)
    }

    public func check(_ day: Day, field: String, user: UserID) throws(FieldError) {
        let last = lastAllowedDay[user] ?? (Day(containing: now, in: .utc).adding(days: 1), .utc)
        guard day > last.day else { return }
        throw FieldError(
            field,
            "is more than one day after today (\(last.day.adding(days: -1)) in \(last.zone.ianaName)); "
                + "future days are refused")
    }
}

/// Users' stored time zones as ingestion starts.
public struct StoredZones: Sendable {
    public var known: [UserID: TimeZone] = [:]
    /// Users whose stored zone does not resolve, with its name: their days after today in UTC cannot be
    /// checked until a user record sets the zone again.
    public var unresolved: [UserID: String] = [:]

    public init() {}

    /// The zones of `names` (stored names by user), each resolved or not.
    public init(names: [UserID: String]) {
        for (user, name) in names {
            if let zone = TimeZone.iana(name) { known[user] = zone } else { unresolved[user] = name }
        }
    }
}

/// Reads a user's stored time zone when the planner first needs it (`FutureDayRule.needsZone`), for a planner
/// not given every user's zone before its input: a streamed input's users are known only as it is read.
public protocol StoredZoneLookup: Sendable {
    /// The user's stored zone name; `nil` for a user the database does not hold. Throws what kept it from being
    /// read, as text fit for a message (no value of the user's).
    func storedZoneName(of user: UserID) throws(FieldError) -> String?
}

/// The rules of an ingestion that need no database, run on the reading thread: decoding, the
/// bounds, the future-day rule (with the users' time zones read before the input starts, and those
/// the input itself sets), and grouping a day's consecutive records into one `DayWrite` — most
/// inputs carry a day's entry and its health sync side by side, and one upsert per day halves the
/// writer's work.
public struct IngestPlanner: LineProcessor {
    /// The JSON Lines decoder; `nil` when records arrive already decoded (the library's batch API).
    let decoder: RecordDecoder?
    let now: Date

    /// Plans with the stored zones of `zones` and, for a user not among them, the zone `lookup` reads when a
    /// day first needs it; without `lookup`, a user not in `zones` is one the database does not hold (UTC).
    public init(
        decoder: RecordDecoder?, now: Date, zones: StoredZones, lookup: (any StoredZoneLookup)? = nil,
        queueHadKnownItems: Bool
    ) {
        self.decoder = decoder
        self.now = now
        self.lookup = lookup
        withholds = !queueHadKnownItems
        futureDays = FutureDayRule(now: now)
        for (user, zone) in zones.known { futureDays.setZone(zone, of: user) }
        unresolvedZones = zones.unresolved
    }
    let lookup: (any StoredZoneLookup)?
    /// Each known user's time zone, and the last day they may write in it (their tomorrow).
    var futureDays: FutureDayRule
    /// Users whose stored zone does not resolve (and no user record in the input has set it again),
    /// with its name: their days after today in UTC cannot be checked, and UTC would be a guess.
    var unresolvedZones: [UserID: String] = [:]
    /// Users `lookup` found no row for: checked in UTC, and not looked up again.
    var unstoredUsers: Set<UserID> = []
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

    public mutating func process(_ number: Int, _ line: JSONLinesReader.Line, into output: inout [PlannedWrite]) {
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

    public mutating func plan(_ record: InputRecord, line: Int, into output: inout [PlannedWrite]) {
        let watchEntry: UserEntry?
        do throws(FieldError) {
            watchEntry = try validate(record)
        } catch {
            handOn(.rejected(line: line, error), into: &output)
            return
        }
        switch record {
        case .entry(let entry):
            addLine(line, .entry, DayWrite(entry), into: &output) { $0.merge(entry) }
        case .health(let metrics):
            addLine(line, .health, DayWrite(metrics), into: &output) { $0.merge(metrics) }
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

    /// A line of the day being planned is merged into it (`merge`); a line of another day starts the next with
    /// `write`, the line's record alone.
    private mutating func addLine(
        _ line: Int, _ kind: DayLines.Kind, _ write: DayWrite, into output: inout [PlannedWrite],
        merge: (inout DayWrite) -> Void
    ) {
        if let current = pending, current.write.user == write.user, current.write.day == write.day {
            merge(&pending!.write)
            pending!.lines.append(line, kind)
        } else {
            startDay(write, DayLines(line, kind), into: &output)
        }
    }

    public mutating func finish(into output: inout [PlannedWrite]) {
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
    public mutating func caughtUp(into output: inout [PlannedWrite]) {
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
    private mutating func validate(_ record: InputRecord) throws(FieldError) -> UserEntry? {
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
    private mutating func checkDay(_ day: Day, field: String, user: UserID) throws(FieldError) {
        guard futureDays.needsZone(day) else { return }
        if let lookup, !futureDays.knows(user), unresolvedZones[user] == nil, !unstoredUsers.contains(user) {
            switch try lookup.storedZoneName(of: user).map({ ($0, TimeZone.iana($0)) }) {
            case nil: unstoredUsers.insert(user)
            case (_, let zone?)?: futureDays.setZone(zone, of: user)
            case (let name, nil)?: unresolvedZones[user] = name
            }
        }
        if let name = unresolvedZones[user] {
            throw FieldError(
                "user",
                "\(user)'s stored time zone '\(name)' is no IANA time zone this machine's tzdata knows; "
                    + "set it with a user record (\"timeZone\") before their days")
        }
        try futureDays.check(day, field: field, user: user)
    }
}

extension FieldError {
    public init(_ error: DomainError) {
        switch error {
        case .invalidValue(let field, let problem): self.init(field, problem)
        }
    }
}
