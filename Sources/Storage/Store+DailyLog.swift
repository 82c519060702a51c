public import Domain
import Foundation

/// Users, their daily logs and settings. The merge rules of DESIGN §2 live in each driver's upsert
/// (`StorageDriver.upsertDay`), so that concurrent writers cannot break them: whichever statement commits last, a
/// `user` value is never replaced by a `health` one.
extension Store {
    /// Stores what a person typed for a day, creating the user (UTC) if new. Runs in its own
    /// transaction; the values are assumed valid (`UserEntry.validate()`), and the database's CHECK
    /// constraints reject any that are not.
    public func write(_ entry: UserEntry) throws(StorageError) {
        try write { () throws(StorageError) in try upsert(DayWrite(entry)) }
    }

    /// Merges one day of health metrics, creating the user (UTC) if new. Runs in its own transaction.
    public func write(_ metrics: HealthMetrics) throws(StorageError) {
        guard !metrics.isEmpty else { return }
        try write { () throws(StorageError) in try upsert(DayWrite(metrics)) }
    }

    /// One day's write, in the open transaction.
    func upsert(_ write: DayWrite) throws(StorageError) {
        try ensureUser(write.user)
        try driver.upsertDay(write, at: now)
    }

    /// The user's log for `day`, or `nil` when nothing was stored for it.
    public func dailyLog(user: UserID, day: Day) throws(StorageError) -> DailyLog? {
        try driver.dailyLogs(user: user, from: day, through: day).first
    }

    /// The user's logs from `first` through `last` (either open when `nil`), in day order.
    public func dailyLogs(user: UserID, from first: Day? = nil, through last: Day? = nil) throws(StorageError)
        -> [DailyLog]
    {
        try driver.dailyLogs(user: user, from: first, through: last)
    }

    /// Creates the user or changes their time zone. Runs in its own transaction.
    public func save(_ user: User) throws(StorageError) {
        try write { () throws(StorageError) in try apply([.user(UserUpdate(id: user.id, timeZone: user.timeZone))]) }
    }

    /// Makes sure a row exists for `id`, with the default time zone (UTC) if it is new.
    func ensureUser(_ id: UserID) throws(StorageError) {
        guard !knownUsers.contains(id) else { return }
        try ensureUsers([id])
    }

    /// `ensureUser` for each of `users`, in one statement for those not known to exist (a repeat of the user before
    /// is not looked up again: a chunk's days come by user).
    func ensureUsers(_ users: some Sequence<UserID>) throws(StorageError) {
        var missing: Set<UserID> = []
        var previous: UserID?
        for user in users where user != previous {
            if !knownUsers.contains(user) { missing.insert(user) }
            previous = user
        }
        guard !missing.isEmpty else { return }
        let rows = missing.sorted { $0.rawValue < $1.rawValue }.map { [SQLValue.text($0.rawValue)] }
        try driver.run(.insertUsersIfMissing, [SQLValue.rows(rows), now])
        noteKnown(missing)
    }

    /// Takes `users` as stored from now on; under a savepoint, only until it is undone (`Store.undoable`).
    private func noteKnown(_ users: some Collection<UserID>) {
        knownUsers.formUnion(users)
        usersEnsuredUnderSavepoint?.append(contentsOf: users)
    }

    /// User and settings records in the open transaction, in a statement per kind of change whatever their number
    /// (each in key order, so concurrent ingestions lock rows in one order), leaving what applying them one by one
    /// would: every user they name created, each user's time zone as the last record that sets one left it, each
    /// setting as its last change left it (a reset deletes it: the registered default applies again).
    func apply(_ records: [InputRecord]) throws(StorageError) {
        var zones: [UserID: String] = [:]
        var mentioned: Set<UserID> = []
        var settings: [SettingRow: SettingValue?] = [:]
        for record in records {
            switch record {
            case .user(let update):
                mentioned.insert(update.id)
                if let zone = update.timeZone { zones[update.id] = zone.ianaName }
            case .settings(let update):
                mentioned.insert(update.user)
                for (key, change) in update.changes { settings[SettingRow(user: update.user, key: key)] = change }
            case .entry, .health, .watch:
                preconditionFailure("days and watch items are staged many at a time")
            }
        }
        if !zones.isEmpty {
            let rows = zones.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                [SQLValue.text($0.key.rawValue), .text($0.value)]
            }
            try driver.run(.upsertUsers, [SQLValue.rows(rows), now])
            noteKnown(zones.keys)
        }
        try ensureUsers(mentioned)
        let ordered = settings.sorted {
            ($0.key.user.rawValue, $0.key.key.rawValue) < ($1.key.user.rawValue, $1.key.key.rawValue)
        }
        var set: [[SQLValue]] = []
        var reset: [[SQLValue]] = []
        for (row, change) in ordered {
            let key: [SQLValue] = [.text(row.user.rawValue), .text(row.key.rawValue)]
            switch change {
            case .bool(let flag)?: set.append(key + [.text("\(flag)")])
            case .integer(let number)?: set.append(key + [.text("\(number)")])
            case nil: reset.append(key)
            }
        }
        if !set.isEmpty { try driver.run(.upsertSettings, [SQLValue.rows(set), now]) }
        if !reset.isEmpty { try driver.run(.deleteSettings, [SQLValue.rows(reset)]) }
    }

    /// A user's setting, as `apply` gathers the last change of each.
    private struct SettingRow: Hashable {
        var user: UserID
        var key: SettingKey
    }

    /// The user with this id, or `nil`.
    public func user(_ id: UserID) throws(StorageError) -> User? {
        try driver.user(id)
    }

    /// Every user, ordered by id. Throws `unknownTimeZone` for a user whose stored zone does not
    /// resolve.
    public func users() throws(StorageError) -> [User] {
        try driver.rows(.users, [], User.init(row:))
    }

    /// The stored time-zone names, resolved or not, of those of `users` the database holds, in one query:
    /// ingestion reads them to check days after today in UTC (a user whose zone no longer resolves stops only
    /// those of their lines, and a user record in the same input can set it again) and to tell which zones its
    /// user records change.
    public func timeZoneNames(of users: [UserID]) throws(StorageError) -> [UserID: String] {
        try driver.timeZoneNames(of: users)
    }

    /// The user's settings: what they set, over the registered defaults for every key they never
    /// set (DESIGN §8, bug 8). A user with no row at all reads as all defaults.
    public func settings(for user: UserID) throws(StorageError) -> UserSettings {
        try settings(for: [user])[user] ?? UserSettings(stored: [:])
    }

    /// `settings(for:)` for each of `users`, in one query.
    public func settings(for users: [UserID]) throws(StorageError) -> [UserID: UserSettings] {
        var stored = Dictionary(
            users.map { ($0, [SettingKey: SettingValue]()) }, uniquingKeysWith: { first, _ in first })
        try driver.forEachRow(.settingsOfUsers, [SQLValue.texts(users.map(\.rawValue))]) { row in
            guard let user = UserID(row.string(0)), let key = SettingKey(rawValue: row.string(1)) else { return }
            switch row.string(2) {
            case "true": stored[user]?[key] = .bool(true)
            case "false": stored[user]?[key] = .bool(false)
            case let text: if let number = Int(text) { stored[user]?[key] = .integer(number) }
            }
        }
        return stored.mapValues { UserSettings(stored: $0) }
    }
}

// What a retrain reads through a `LogReader`, read on the store's own connection: where no reader can be opened
// (a server at its connection limit), a retrain reads through the store. Each returns what `LogReader`'s method of
// the same name returns, as its doc comment says.
extension Store {
    public func sourcedDayValues(user: UserID, through last: Day) throws(StorageError) -> [SourcedDayValues] {
        try driver.sourcedDayValues(user: user, through: last)
    }

    public func dayValues(users: [UserID], through last: Day) throws(StorageError) -> [[DayValues]] {
        try driver.dayValues(users: users, through: last)
    }

    public func sourcedDayValues(users: [UserID], through last: Day) throws(StorageError) -> [[SourcedDayValues]] {
        try driver.sourcedDayValues(users: users, through: last)
    }

    public func users(_ ids: [UserID]) throws(StorageError) -> [User] {
        try driver.users(ids)
    }

    public func userIDs() throws(StorageError) -> [UserID] {
        try driver.userIDs()
    }

    public func servingModels(scopes: [String]) throws(StorageError) -> [String: StoredModel] {
        try driver.servingModels(scopes: scopes)
    }
}

/// The reads a `Store` and a `LogReader` share, on the connection of either.
extension StorageDriver {
    func dailyLogs(user: UserID, from first: Day?, through last: Day?) throws(StorageError) -> [DailyLog] {
        // The first and the last day a `Day` can be.
        try rows(.dailyLogs, [user, first?.description ?? "0001-01-01", last?.description ?? "9999-12-31"]) {
            DailyLog(row: $0, user: user)
        }
    }

    // The reads of a retrain, one row per user-day: each builds its own values in a closure of its own types (a
    // generic decoder here cost a retrain several percent in the runtime's metadata lookups). One user's read is
    // the read of a batch of one.
    func dayValues(users: [UserID], through last: Day) throws(StorageError) -> [[DayValues]] {
        var values = [[DayValues]](repeating: [], count: users.count)
        try forEachUserRow(.dayValuesOfUsers, users: users, through: last) { row, index in
            if let day = DayValues(row: row, .values) { values[index].append(day) }
        }
        return values
    }

    func sourcedDayValues(user: UserID, through last: Day) throws(StorageError) -> [SourcedDayValues] {
        try sourcedDayValues(users: [user], through: last)[0]
    }

    /// Each of `users`' day values with their metrics' sources through `last`, in day order, in the order of
    /// `users`, in one query.
    func sourcedDayValues(users: [UserID], through last: Day) throws(StorageError) -> [[SourcedDayValues]] {
        var values = [[SourcedDayValues]](repeating: [], count: users.count)
        let columns = DayColumns.sourced
        try forEachUserRow(.sourcedDayValuesOfUsers, users: users, through: last) { row, index in
            guard let read = DayValues(row: row, columns) else { return }
            values[index].append(SourcedDayValues(read) { metric in row.source(columns.source(metric)) })
        }
        return values
    }

    func user(_ id: UserID) throws(StorageError) -> User? {
        try users([id]).first
    }

    func timeZoneNames(of ids: [UserID]) throws(StorageError) -> [UserID: String] {
        let names = try rows(.usersWithIDs, [SQLValue.texts(ids.map(\.rawValue))]) { row in
            UserID(row.string(0)).map { ($0, row.string(1)) }
        }
        return Dictionary(names, uniquingKeysWith: { first, _ in first })
    }

    /// Those of `users` that exist, ordered by id.
    func users(_ ids: [UserID]) throws(StorageError) -> [User] {
        try rows(.usersWithIDs, [SQLValue.texts(ids.map(\.rawValue))], User.init(row:))
    }

    /// Every user's id, ordered: counted first, so the array is allocated once at its size (grown by doubling, it
    /// touched much more memory: docs/benchmarks.md).
    func userIDs() throws(StorageError) -> [UserID] {
        var ids: [UserID] = []
        ids.reserveCapacity(try integer(.userCount))
        ids += try rows(.userIDs, []) { UserID($0.string(0)) }
        return ids
    }

    /// Calls `body` with each row `sql` selects for `users` ($1, a list) through `last` ($2), `user_id` first and
    /// ordered by user and day, and the user's index in `users`.
    private func forEachUserRow(
        _ sql: SQL, users: [UserID], through last: Day, _ body: (any RowReader, Int) -> Void
    ) throws(StorageError) {
        guard !users.isEmpty else { return }
        var position: [String: Int] = [:]
        for (index, user) in users.enumerated() { position[user.rawValue] = index }
        // Each user's rows come together, in day order.
        var current = (id: "", index: -1)
        try forEachRow(sql, [SQLValue.texts(users.map(\.rawValue)), last]) { row in
            if !row.withBytes(0, { $0.elementsEqual(current.id.utf8) }) {
                let id = row.string(0)
                current = (id, position[id] ?? -1)
            }
            if current.index >= 0 { body(row, current.index) }
        }
    }
}

/// Where a day's values are in a row of a retrain's reads: `user_id`, `day`, the three user-only fields, then the
/// four metrics, each `stride` columns after the one before (1: the values alone; 2: each value followed by its
/// source, which the table's CHECK makes NULL exactly when the value is).
struct DayColumns {
    var stride: Int32

    /// `user_id, day, symptom_severity, mood, energy, hrv, resting_heart_rate, step_count, sleep_duration`.
    static var values: DayColumns { DayColumns(stride: 1) }
    /// `user_id, day, symptom_severity, mood, energy, hrv, hrv_source, …, sleep_duration, sleep_duration_source`.
    static var sourced: DayColumns { DayColumns(stride: 2) }

    func value(_ field: Field) -> Int32 {
        switch field {
        case .symptomSeverity: 2
        case .mood: 3
        case .energy: 4
        case .hrv: 5
        case .restingHeartRate: 5 + stride
        case .stepCount: 5 + 2 * stride
        case .sleepDuration: 5 + 3 * stride
        }
    }

    /// A metric's source, in a row of `sourced`.
    func source(_ metric: Field) -> Int32 { value(metric) + 1 }
}

extension DayValues {
    /// The values in `row` at `columns`; `nil` for a row whose day does not read as one.
    init?(row: any RowReader, _ columns: DayColumns) {
        guard let day = row.day(1) else { return nil }
        self.init(day: day)
        symptomSeverity = row.optionalInt(columns.value(.symptomSeverity))
        mood = row.optionalInt(columns.value(.mood))
        energy = row.optionalInt(columns.value(.energy))
        hrv = row.optionalDouble(columns.value(.hrv))
        restingHeartRate = row.optionalDouble(columns.value(.restingHeartRate))
        stepCount = row.optionalInt(columns.value(.stepCount))
        sleepDuration = row.optionalDouble(columns.value(.sleepDuration))
    }
}

extension DailyLog {
    /// A row of `SQL.dailyLogs`' columns, the user's id first (not read: it is `user`).
    init?(row: any RowReader, user: UserID) {
        guard let day = row.day(1) else { return nil }
        self.init(user: user, day: day)
        symptomSeverity = row.optionalInt(2)
        mood = row.optionalInt(3)
        energy = row.optionalInt(4)
        notes = row.optionalString(5)
        hrv = row.optionalDouble(6).map { Sourced($0, row.source(7)) }
        restingHeartRate = row.optionalDouble(8).map { Sourced($0, row.source(9)) }
        stepCount = row.optionalInt(10).map { Sourced($0, row.source(11)) }
        sleepDuration = row.optionalDouble(12).map { Sourced($0, row.source(13)) }
    }
}

extension User {
    /// A user read back from the `users` table (`id`, `time_zone` first). Rows are written only through the
    /// upserts, so an invalid id is a row pipeline did not write and is skipped; a zone that no longer resolves is
    /// an error, because reading it as UTC would silently move the user's days and reminders.
    init?(row: any RowReader) throws(StorageError) {
        guard let id = UserID(row.string(0)) else { return nil }
        let name = row.string(1)
        guard let timeZone = TimeZone.iana(name) else { throw .unknownTimeZone(user: id.rawValue, zone: name) }
        self.init(id: id, timeZone: timeZone)
    }
}

extension SQL {
    /// $1 rows of (id, time_zone), one per user, $2 created_at.
    static let upsertUsers = SQL(
        """
        INSERT INTO users (id, time_zone, created_at)
        SELECT s.value ->> 0, s.value ->> 1, $2::bigint FROM json_array_elements($1::json) AS s (value) WHERE true
        ON CONFLICT (id) DO UPDATE SET time_zone = excluded.time_zone
        """)
    /// $1 rows of (id), $2 created_at: each user missing created in the default time zone.
    static let insertUsersIfMissing = SQL(
        """
        INSERT INTO users (id, time_zone, created_at)
        SELECT s.value ->> 0, 'UTC', $2::bigint FROM json_array_elements($1::json) AS s (value) WHERE true
        ON CONFLICT (id) DO NOTHING
        """)
    static let users = SQL("SELECT id, time_zone FROM users ORDER BY id")
    /// $1 ids (a list).
    static let usersWithIDs = SQL("SELECT id, time_zone FROM users WHERE id = ANY($1::text[]) ORDER BY id")
    static let userCount = SQL("SELECT count(*) FROM users")
    static let userIDs = SQL("SELECT id FROM users ORDER BY id")

    /// $1 users (a list): user_id, key, value (the JSON text `true`, `false` or a number).
    static let settingsOfUsers = SQL("SELECT user_id, key, value FROM user_settings WHERE user_id = ANY($1::text[])")
    /// $1 rows of (user, key, value as JSON text), one per setting, $2 updated_at.
    static let upsertSettings = SQL(
        """
        INSERT INTO user_settings (user_id, key, value, updated_at)
        SELECT s.value ->> 0, s.value ->> 1, (s.value ->> 2)::json, $2::bigint
        FROM json_array_elements($1::json) AS s (value) WHERE true
        ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
        """)
    /// $1 rows of (user, key).
    static let deleteSettings = SQL(
        """
        DELETE FROM user_settings WHERE (user_id, key) IN (
            SELECT s.value ->> 0, s.value ->> 1 FROM json_array_elements($1::json) AS s (value))
        """)

    /// $1 user, $2 first day, $3 last day: the columns `DailyLog(row:user:)` reads, in day order.
    static let dailyLogs = SQL(
        """
        SELECT user_id, day, symptom_severity, mood, energy, notes,
            hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
            step_count, step_count_source, sleep_duration, sleep_duration_source
        FROM daily_logs
        WHERE user_id = $1 AND day >= $2 AND day <= $3 ORDER BY day
        """, binaryRows: true)
    /// $1 users (a list), $2 last day: `DayColumns.values`, by user and day.
    static let dayValuesOfUsers = SQL(
        """
        SELECT user_id, day, symptom_severity, mood, energy, hrv, resting_heart_rate, step_count, sleep_duration
        FROM daily_logs
        WHERE user_id = ANY($1::text[]) AND day <= $2 ORDER BY user_id, day
        """, binaryRows: true)
    /// $1 users (a list), $2 last day: `DayColumns.sourced`, by user and day.
    static let sourcedDayValuesOfUsers = SQL(
        """
        SELECT user_id, day, symptom_severity, mood, energy, hrv, hrv_source, resting_heart_rate,
            resting_heart_rate_source, step_count, step_count_source, sleep_duration, sleep_duration_source
        FROM daily_logs
        WHERE user_id = ANY($1::text[]) AND day <= $2 ORDER BY user_id, day
        """, binaryRows: true)
}
