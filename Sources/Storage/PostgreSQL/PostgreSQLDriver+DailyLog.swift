import Domain
import Foundation

/// The merge rules of DESIGN §2 in PostgreSQL's upsert: the same statement as SQLite's
/// (`SQLiteDriver.upsertDay`), in this dialect. In `ON CONFLICT … DO UPDATE SET`, `daily_logs.x` is
/// the stored row's value before the update; the row is locked for the statement, so concurrent
/// writers apply one after the other and a `user` value is never replaced by a `health` one.
/// https://www.postgresql.org/docs/15/sql-insert.html#SQL-ON-CONFLICT
extension PostgreSQLDriver {
    /// Parameters as `SQLiteDriver.upsertDay`: $1 user, $2 day, $3 updated_at; user-only fields as
    /// value and "mentioned" flag ($4 $5 … $10 $11); each metric as the user's value, its flag and
    /// the health reading (hrv $12 $13 $14 … sleep_duration $21 $22 $23).
    static let upsertDay: StaticString = """
        INSERT INTO daily_logs (
            user_id, day, updated_at, symptom_severity, mood, energy, notes,
            hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
            step_count, step_count_source, sleep_duration, sleep_duration_source)
        VALUES (
            $1, $2, $3, $4::integer, $6::integer, $8::integer, $10::text,
            CASE WHEN $13::boolean AND $12::float8 IS NOT NULL THEN $12::float8 ELSE $14::float8 END,
            CASE WHEN $13::boolean AND $12::float8 IS NOT NULL THEN 'user' WHEN $14::float8 IS NOT NULL THEN 'health' END,
            CASE WHEN $16::boolean AND $15::float8 IS NOT NULL THEN $15::float8 ELSE $17::float8 END,
            CASE WHEN $16::boolean AND $15::float8 IS NOT NULL THEN 'user' WHEN $17::float8 IS NOT NULL THEN 'health' END,
            CASE WHEN $19::boolean AND $18::bigint IS NOT NULL THEN $18::bigint ELSE $20::bigint END,
            CASE WHEN $19::boolean AND $18::bigint IS NOT NULL THEN 'user' WHEN $20::bigint IS NOT NULL THEN 'health' END,
            CASE WHEN $22::boolean AND $21::float8 IS NOT NULL THEN $21::float8 ELSE $23::float8 END,
            CASE WHEN $22::boolean AND $21::float8 IS NOT NULL THEN 'user' WHEN $23::float8 IS NOT NULL THEN 'health' END)
        ON CONFLICT (user_id, day) DO UPDATE SET
            updated_at = $3,
            symptom_severity = CASE WHEN $5::boolean THEN $4::integer ELSE daily_logs.symptom_severity END,
            mood = CASE WHEN $7::boolean THEN $6::integer ELSE daily_logs.mood END,
            energy = CASE WHEN $9::boolean THEN $8::integer ELSE daily_logs.energy END,
            notes = CASE WHEN $11::boolean THEN $10::text ELSE daily_logs.notes END,
            hrv = CASE
                WHEN $14::float8 IS NOT NULL AND NOT (CASE WHEN $13::boolean THEN $12::float8 IS NOT NULL
                    ELSE daily_logs.hrv_source IS NOT DISTINCT FROM 'user' END)
                    THEN $14::float8
                WHEN $13::boolean THEN $12::float8
                ELSE daily_logs.hrv END,
            hrv_source = CASE
                WHEN $14::float8 IS NOT NULL AND NOT (CASE WHEN $13::boolean THEN $12::float8 IS NOT NULL
                    ELSE daily_logs.hrv_source IS NOT DISTINCT FROM 'user' END)
                    THEN 'health'
                WHEN $13::boolean THEN CASE WHEN $12::float8 IS NULL THEN NULL ELSE 'user' END
                ELSE daily_logs.hrv_source END,
            resting_heart_rate = CASE
                WHEN $17::float8 IS NOT NULL AND NOT (CASE WHEN $16::boolean THEN $15::float8 IS NOT NULL
                    ELSE daily_logs.resting_heart_rate_source IS NOT DISTINCT FROM 'user' END)
                    THEN $17::float8
                WHEN $16::boolean THEN $15::float8
                ELSE daily_logs.resting_heart_rate END,
            resting_heart_rate_source = CASE
                WHEN $17::float8 IS NOT NULL AND NOT (CASE WHEN $16::boolean THEN $15::float8 IS NOT NULL
                    ELSE daily_logs.resting_heart_rate_source IS NOT DISTINCT FROM 'user' END)
                    THEN 'health'
                WHEN $16::boolean THEN CASE WHEN $15::float8 IS NULL THEN NULL ELSE 'user' END
                ELSE daily_logs.resting_heart_rate_source END,
            step_count = CASE
                WHEN $20::bigint IS NOT NULL AND NOT (CASE WHEN $19::boolean THEN $18::bigint IS NOT NULL
                    ELSE daily_logs.step_count_source IS NOT DISTINCT FROM 'user' END)
                    THEN $20::bigint
                WHEN $19::boolean THEN $18::bigint
                ELSE daily_logs.step_count END,
            step_count_source = CASE
                WHEN $20::bigint IS NOT NULL AND NOT (CASE WHEN $19::boolean THEN $18::bigint IS NOT NULL
                    ELSE daily_logs.step_count_source IS NOT DISTINCT FROM 'user' END)
                    THEN 'health'
                WHEN $19::boolean THEN CASE WHEN $18::bigint IS NULL THEN NULL ELSE 'user' END
                ELSE daily_logs.step_count_source END,
            sleep_duration = CASE
                WHEN $23::float8 IS NOT NULL AND NOT (CASE WHEN $22::boolean THEN $21::float8 IS NOT NULL
                    ELSE daily_logs.sleep_duration_source IS NOT DISTINCT FROM 'user' END)
                    THEN $23::float8
                WHEN $22::boolean THEN $21::float8
                ELSE daily_logs.sleep_duration END,
            sleep_duration_source = CASE
                WHEN $23::float8 IS NOT NULL AND NOT (CASE WHEN $22::boolean THEN $21::float8 IS NOT NULL
                    ELSE daily_logs.sleep_duration_source IS NOT DISTINCT FROM 'user' END)
                    THEN 'health'
                WHEN $22::boolean THEN CASE WHEN $21::float8 IS NULL THEN NULL ELSE 'user' END
                ELSE daily_logs.sleep_duration_source END
        """

    /// `upsertDay` for a chunk of days in one statement: parameters as `upsertDay`'s, each an array
    /// with one element per day (a chunk holds each user-day at most once), except $3. A statement
    /// per row costs this server as much again as the write itself.
    ///
    /// A day with no row is inserted whole (`upsertDay`'s VALUES rules); a day with a row takes
    /// `upsertDay`'s DO UPDATE rules, the row locked and re-read if another writer changed it
    /// meanwhile. When every day was inserted — a first ingestion — the update is not even looked
    /// for (a one-time filter on the counts), which saves an index probe per day. Both parts see the
    /// statement's snapshot, so a row another transaction inserts after it was taken is neither
    /// inserted (the conflict) nor updated (not visible): the statement returns the days it wrote,
    /// and the caller writes the others with `upsertDay`.
    /// https://www.postgresql.org/docs/15/queries-with.html#QUERIES-WITH-MODIFYING
    static let bulkUpsertDays: StaticString = """
        WITH s AS (
            SELECT * FROM unnest(
                $1::text[], $2::text[], $4::integer[], $5::boolean[], $6::integer[], $7::boolean[],
                $8::integer[], $9::boolean[], $10::text[], $11::boolean[],
                $12::float8[], $13::boolean[], $14::float8[], $15::float8[], $16::boolean[], $17::float8[],
                $18::bigint[], $19::boolean[], $20::bigint[], $21::float8[], $22::boolean[], $23::float8[]
            ) AS staged (
                user_id, day, severity, severity_set, mood, mood_set, energy, energy_set, notes, notes_set,
                hrv_user, hrv_set, hrv_health, rhr_user, rhr_set, rhr_health,
                steps_user, steps_set, steps_health, sleep_user, sleep_set, sleep_health)),
        inserted AS (
            INSERT INTO daily_logs (
                user_id, day, updated_at, symptom_severity, mood, energy, notes,
                hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
                step_count, step_count_source, sleep_duration, sleep_duration_source)
            SELECT s.user_id, s.day, $3::bigint, s.severity, s.mood, s.energy, s.notes,
                CASE WHEN s.hrv_set AND s.hrv_user IS NOT NULL THEN s.hrv_user ELSE s.hrv_health END,
                CASE WHEN s.hrv_set AND s.hrv_user IS NOT NULL THEN 'user' WHEN s.hrv_health IS NOT NULL THEN 'health' END,
                CASE WHEN s.rhr_set AND s.rhr_user IS NOT NULL THEN s.rhr_user ELSE s.rhr_health END,
                CASE WHEN s.rhr_set AND s.rhr_user IS NOT NULL THEN 'user' WHEN s.rhr_health IS NOT NULL THEN 'health' END,
                CASE WHEN s.steps_set AND s.steps_user IS NOT NULL THEN s.steps_user ELSE s.steps_health END,
                CASE WHEN s.steps_set AND s.steps_user IS NOT NULL THEN 'user'
                    WHEN s.steps_health IS NOT NULL THEN 'health' END,
                CASE WHEN s.sleep_set AND s.sleep_user IS NOT NULL THEN s.sleep_user ELSE s.sleep_health END,
                CASE WHEN s.sleep_set AND s.sleep_user IS NOT NULL THEN 'user'
                    WHEN s.sleep_health IS NOT NULL THEN 'health' END
            FROM s
            ON CONFLICT (user_id, day) DO NOTHING
            RETURNING user_id, day),
        updated AS (
            UPDATE daily_logs SET
                updated_at = $3::bigint,
                symptom_severity = CASE WHEN s.severity_set THEN s.severity ELSE daily_logs.symptom_severity END,
                mood = CASE WHEN s.mood_set THEN s.mood ELSE daily_logs.mood END,
                energy = CASE WHEN s.energy_set THEN s.energy ELSE daily_logs.energy END,
                notes = CASE WHEN s.notes_set THEN s.notes ELSE daily_logs.notes END,
                hrv = CASE
                    WHEN s.hrv_health IS NOT NULL AND NOT (CASE WHEN s.hrv_set THEN s.hrv_user IS NOT NULL
                        ELSE daily_logs.hrv_source IS NOT DISTINCT FROM 'user' END)
                        THEN s.hrv_health
                    WHEN s.hrv_set THEN s.hrv_user
                    ELSE daily_logs.hrv END,
                hrv_source = CASE
                    WHEN s.hrv_health IS NOT NULL AND NOT (CASE WHEN s.hrv_set THEN s.hrv_user IS NOT NULL
                        ELSE daily_logs.hrv_source IS NOT DISTINCT FROM 'user' END)
                        THEN 'health'
                    WHEN s.hrv_set THEN CASE WHEN s.hrv_user IS NULL THEN NULL ELSE 'user' END
                    ELSE daily_logs.hrv_source END,
                resting_heart_rate = CASE
                    WHEN s.rhr_health IS NOT NULL AND NOT (CASE WHEN s.rhr_set THEN s.rhr_user IS NOT NULL
                        ELSE daily_logs.resting_heart_rate_source IS NOT DISTINCT FROM 'user' END)
                        THEN s.rhr_health
                    WHEN s.rhr_set THEN s.rhr_user
                    ELSE daily_logs.resting_heart_rate END,
                resting_heart_rate_source = CASE
                    WHEN s.rhr_health IS NOT NULL AND NOT (CASE WHEN s.rhr_set THEN s.rhr_user IS NOT NULL
                        ELSE daily_logs.resting_heart_rate_source IS NOT DISTINCT FROM 'user' END)
                        THEN 'health'
                    WHEN s.rhr_set THEN CASE WHEN s.rhr_user IS NULL THEN NULL ELSE 'user' END
                    ELSE daily_logs.resting_heart_rate_source END,
                step_count = CASE
                    WHEN s.steps_health IS NOT NULL AND NOT (CASE WHEN s.steps_set THEN s.steps_user IS NOT NULL
                        ELSE daily_logs.step_count_source IS NOT DISTINCT FROM 'user' END)
                        THEN s.steps_health
                    WHEN s.steps_set THEN s.steps_user
                    ELSE daily_logs.step_count END,
                step_count_source = CASE
                    WHEN s.steps_health IS NOT NULL AND NOT (CASE WHEN s.steps_set THEN s.steps_user IS NOT NULL
                        ELSE daily_logs.step_count_source IS NOT DISTINCT FROM 'user' END)
                        THEN 'health'
                    WHEN s.steps_set THEN CASE WHEN s.steps_user IS NULL THEN NULL ELSE 'user' END
                    ELSE daily_logs.step_count_source END,
                sleep_duration = CASE
                    WHEN s.sleep_health IS NOT NULL AND NOT (CASE WHEN s.sleep_set THEN s.sleep_user IS NOT NULL
                        ELSE daily_logs.sleep_duration_source IS NOT DISTINCT FROM 'user' END)
                        THEN s.sleep_health
                    WHEN s.sleep_set THEN s.sleep_user
                    ELSE daily_logs.sleep_duration END,
                sleep_duration_source = CASE
                    WHEN s.sleep_health IS NOT NULL AND NOT (CASE WHEN s.sleep_set THEN s.sleep_user IS NOT NULL
                        ELSE daily_logs.sleep_duration_source IS NOT DISTINCT FROM 'user' END)
                        THEN 'health'
                    WHEN s.sleep_set THEN CASE WHEN s.sleep_user IS NULL THEN NULL ELSE 'user' END
                    ELSE daily_logs.sleep_duration_source END
            FROM s
            WHERE daily_logs.user_id = s.user_id AND daily_logs.day = s.day
                AND (SELECT count(*) FROM inserted) < (SELECT count(*) FROM s)
            RETURNING daily_logs.user_id, daily_logs.day)
        SELECT user_id, day FROM inserted UNION ALL SELECT user_id, day FROM updated
        """

    func write(_ entry: UserEntry) throws(StorageError) {
        try write { () throws(StorageError) in try apply(DayWrite(entry)) }
    }

    func write(_ metrics: HealthMetrics) throws(StorageError) {
        guard !metrics.isEmpty else { return }
        try write { () throws(StorageError) in try apply(DayWrite(metrics)) }
    }

    func apply(_ write: DayWrite) throws(StorageError) {
        try flushStagedDays()
        try ensureUser(write.user)
        try connection.query(PostgreSQLDriver.upsertDay, dayParameters(write))
    }

    /// `upsertDay`'s parameters for `write`.
    func dayParameters(_ write: DayWrite) -> [String?] {
        let entry = write.entry
        let health = write.health
        return [
            write.user.rawValue, write.day.description, .pg(nowMilliseconds),
            .pg(entry.symptomSeverity.newValue), .pg(!entry.symptomSeverity.isUnchanged),
            .pg(entry.mood.newValue), .pg(!entry.mood.isUnchanged),
            .pg(entry.energy.newValue), .pg(!entry.energy.isUnchanged),
            entry.notes.newValue, .pg(!entry.notes.isUnchanged),
            .pg(entry.hrv.newValue), .pg(!entry.hrv.isUnchanged), .pg(health.hrv),
            .pg(entry.restingHeartRate.newValue), .pg(!entry.restingHeartRate.isUnchanged),
            .pg(health.restingHeartRate),
            .pg(entry.stepCount.newValue), .pg(!entry.stepCount.isUnchanged), .pg(health.stepCount),
            .pg(entry.sleepDuration.newValue), .pg(!entry.sleepDuration.isUnchanged), .pg(health.sleepDuration),
        ]
    }

    func dailyLog(user: UserID, day: Day) throws(StorageError) -> DailyLog? {
        // The column order is the one `decodeDailyLog` reads.
        let rows = try connection.query(
            """
            SELECT user_id, day, symptom_severity, mood, energy, notes,
                hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
                step_count, step_count_source, sleep_duration, sleep_duration_source
            FROM daily_logs
            WHERE user_id = $1 AND day = $2
            """, [user.rawValue, day.description])
        return rows.count > 0 ? decodeDailyLog(rows, 0, user: user) : nil
    }

    func dailyLogs(user: UserID, from first: Day?, through last: Day?) throws(StorageError) -> [DailyLog] {
        let rows = try connection.query(
            """
            SELECT user_id, day, symptom_severity, mood, energy, notes,
                hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
                step_count, step_count_source, sleep_duration, sleep_duration_source
            FROM daily_logs
            WHERE user_id = $1 AND day >= $2 AND day <= $3 ORDER BY day
            """,
            // '0000-00-00' and '9999-99-99' sort before and after every valid day.
            [user.rawValue, first?.description ?? "0000-00-00", last?.description ?? "9999-99-99"])
        return (0..<rows.count).compactMap { decodeDailyLog(rows, $0, user: user) }
    }

    func dailyLogs(users: [UserID], through last: Day) throws(StorageError) -> [[DailyLog]] {
        try grouped(
            users: users, through: last,
            """
            SELECT user_id, day, symptom_severity, mood, energy, notes,
                hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
                step_count, step_count_source, sleep_duration, sleep_duration_source
            FROM daily_logs
            WHERE user_id = ANY($1::text[]) AND day <= $2 ORDER BY user_id, day
            """
        ) { rows, row, user in decodeDailyLog(rows, row, user: user) }
    }

    /// Each user's day values through `last`, in day order, in the order of `users`: `dailyLogs(users:through:)`
    /// without the notes and sources, in one query.
    func dayValues(users: [UserID], through last: Day) throws(StorageError) -> [[DayValues]] {
        try grouped(
            users: users, through: last,
            """
            SELECT user_id, day, symptom_severity, mood, energy, hrv, resting_heart_rate, step_count, sleep_duration
            FROM daily_logs
            WHERE user_id = ANY($1::text[]) AND day <= $2 ORDER BY user_id, day
            """
        ) { rows, row, _ in decodeDayValues(rows, row, .values(from: 1)) }
    }

    /// The user's day values and sources through `last`, in day order: `dailyLogs(user:through:)` without the
    /// notes.
    func sourcedDayValues(user: UserID, through last: Day) throws(StorageError) -> [SourcedDayValues] {
        let rows = try connection.query(
            """
            SELECT day, symptom_severity, mood, energy, hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
                step_count, step_count_source, sleep_duration, sleep_duration_source
            FROM daily_logs
            WHERE user_id = $1 AND day <= $2 ORDER BY day
            """, [user.rawValue, last.description])
        return (0..<rows.count).compactMap { row in
            decodeDayValues(rows, row, .sourced).map { read in
                SourcedDayValues(read) { metric in
                    let column = DayColumns.sourced.source(metric)
                    return rows.withBytes(row, column) { $0.first == UInt8(ascii: "u") } ? .user : .health
                }
            }
        }
    }

    private func decodeDayValues(_ rows: PostgreSQLRows, _ row: Int, _ columns: DayColumns) -> DayValues? {
        guard let day = rows.withBytes(row, columns.first, { Day(utf8: $0) }) else { return nil }
        var read = DayValues(day: day)
        read.symptomSeverity = rows.optionalInt(row, columns.value(.symptomSeverity))
        read.mood = rows.optionalInt(row, columns.value(.mood))
        read.energy = rows.optionalInt(row, columns.value(.energy))
        read.hrv = rows.optionalDouble(row, columns.value(.hrv))
        read.restingHeartRate = rows.optionalDouble(row, columns.value(.restingHeartRate))
        read.stepCount = rows.optionalInt(row, columns.value(.stepCount))
        read.sleepDuration = rows.optionalDouble(row, columns.value(.sleepDuration))
        return read
    }

    /// The rows `sql` selects for `users` ($1) through `last` ($2), `user_id` first and ordered by user and day,
    /// decoded by `decode` into one array per user in the order of `users`, each in day order.
    private func grouped<Row>(
        users: [UserID], through last: Day, _ sql: StaticString, decode: (PostgreSQLRows, Int, UserID) -> Row?
    ) throws(StorageError) -> [[Row]] {
        guard !users.isEmpty else { return [] }
        let rows = try connection.query(sql, [PostgreSQLDriver.arrayLiteral(users.map(\.rawValue)), last.description])
        var position: [String: Int] = [:]
        for (index, user) in users.enumerated() { position[user.rawValue] = index }
        var grouped = [[Row]](repeating: [], count: users.count)
        // Each user's rows come together, in day order.
        var current = (id: "", index: -1)
        for row in 0..<rows.count {
            let id = rows.string(row, 0)
            if id != current.id { current = (id, position[id] ?? -1) }
            guard current.index >= 0, let decoded = decode(rows, row, users[current.index]) else { continue }
            grouped[current.index].append(decoded)
        }
        return grouped
    }

    private func decodeDailyLog(_ rows: PostgreSQLRows, _ row: Int, user: UserID) -> DailyLog? {
        guard let day = rows.withBytes(row, 1, { Day(utf8: $0) }) else { return nil }
        func source(_ column: Int32) -> Source {
            rows.withBytes(row, column) { $0.first == UInt8(ascii: "u") } ? .user : .health
        }
        var log = DailyLog(user: user, day: day)
        log.symptomSeverity = rows.optionalInt(row, 2)
        log.mood = rows.optionalInt(row, 3)
        log.energy = rows.optionalInt(row, 4)
        log.notes = rows.optionalString(row, 5)
        log.hrv = rows.optionalDouble(row, 6).map { Sourced($0, source(7)) }
        log.restingHeartRate = rows.optionalDouble(row, 8).map { Sourced($0, source(9)) }
        log.stepCount = rows.optionalInt(row, 10).map { Sourced($0, source(11)) }
        log.sleepDuration = rows.optionalDouble(row, 12).map { Sourced($0, source(13)) }
        return log
    }

    // MARK: Users

    func save(_ user: User) throws(StorageError) {
        try write { () throws(StorageError) in try upsert(user) }
    }

    func apply(_ update: UserUpdate) throws(StorageError) {
        guard let timeZone = update.timeZone else {
            try ensureUser(update.id)
            return
        }
        try upsert(User(id: update.id, timeZone: timeZone))
    }

    func upsert(_ user: User) throws(StorageError) {
        try connection.query(
            """
            INSERT INTO users (id, time_zone, created_at) VALUES ($1, $2, $3)
            ON CONFLICT (id) DO UPDATE SET time_zone = excluded.time_zone
            """, [user.id.rawValue, user.timeZone.ianaName, .pg(nowMilliseconds)])
        knownUsers.insert(user.id)
    }

    /// Makes sure a row exists for `id`, with the default time zone (UTC) if it is new.
    func ensureUser(_ id: UserID) throws(StorageError) {
        guard !knownUsers.contains(id) else { return }
        try connection.query(
            "INSERT INTO users (id, time_zone, created_at) VALUES ($1, 'UTC', $2) ON CONFLICT (id) DO NOTHING",
            [id.rawValue, .pg(nowMilliseconds)])
        knownUsers.insert(id)
    }

    func user(_ id: UserID) throws(StorageError) -> User? {
        let rows = try connection.query("SELECT id, time_zone FROM users WHERE id = $1", [id.rawValue])
        return rows.count > 0 ? try decodeUser(rows, 0) : nil
    }

    func users() throws(StorageError) -> [User] {
        try decodeUsers(try connection.query("SELECT id, time_zone FROM users ORDER BY id"))
    }

    func userIDs() throws(StorageError) -> [UserID] {
        let rows = try connection.query("SELECT id FROM users ORDER BY id")
        var ids: [UserID] = []
        ids.reserveCapacity(rows.count)
        for row in 0..<rows.count {
            if let id = UserID(rows.string(row, 0)) { ids.append(id) }
        }
        return ids
    }

    func timeZoneNames() throws(StorageError) -> [UserID: String] {
        let rows = try connection.query("SELECT id, time_zone FROM users")
        var names: [UserID: String] = [:]
        for row in 0..<rows.count {
            if let id = UserID(rows.string(row, 0)) { names[id] = rows.string(row, 1) }
        }
        return names
    }

    /// The users in rows whose first two columns are `id` and `time_zone`.
    func decodeUsers(_ rows: PostgreSQLRows) throws(StorageError) -> [User] {
        var users: [User] = []
        for row in 0..<rows.count {
            if let user = try decodeUser(rows, row) { users.append(user) }
        }
        return users
    }

    func decodeUser(_ rows: PostgreSQLRows, _ row: Int) throws(StorageError) -> User? {
        try User.stored(id: rows.string(row, 0), timeZone: rows.string(row, 1))
    }

    // MARK: Settings

    func settings(for user: UserID) throws(StorageError) -> UserSettings {
        let rows = try connection.query(
            "SELECT key, value::text FROM user_settings WHERE user_id = $1", [user.rawValue])
        var stored: [SettingKey: SettingValue] = [:]
        for row in 0..<rows.count {
            guard let key = SettingKey(rawValue: rows.string(row, 0)) else { continue }
            switch rows.string(row, 1) {
            case "true": stored[key] = .bool(true)
            case "false": stored[key] = .bool(false)
            case let text: if let number = Int(text) { stored[key] = .integer(number) }
            }
        }
        return UserSettings(stored: stored)
    }

    func apply(_ update: SettingsUpdate) throws(StorageError) {
        try ensureUser(update.user)
        for (key, change) in update.changes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let value = change {
                let text =
                    switch value {
                    case .bool(let flag): flag ? "true" : "false"
                    case .integer(let number): String(number)
                    }
                try connection.query(
                    """
                    INSERT INTO user_settings (user_id, key, value, updated_at) VALUES ($1, $2, $3::json, $4)
                    ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                    """, [update.user.rawValue, key.rawValue, text, .pg(nowMilliseconds)])
            } else {
                // Reset: the registered default applies again.
                try connection.query(
                    "DELETE FROM user_settings WHERE user_id = $1 AND key = $2", [update.user.rawValue, key.rawValue])
            }
        }
    }
}
