import Domain
import Foundation

/// The statements whose rows PostgreSQL binds its own way: the merge rules of DESIGN §2 as upserts, a bulk
/// load's days and watch items as one array parameter per column (`unnest`), and a copy's rows.
///
/// The merge rules are the same as SQLite's (`SQLiteDriver.upsertDay`), in this dialect, for a chunk of days at
/// once; a single day is a chunk of one. The row an update changes is locked for the statement, so concurrent
/// writers apply one after the other and a `user` value is never replaced by a `health` one.
extension PostgreSQLDriver {
    /// The merge rules for a chunk of days in one statement (a chunk holds each user-day at most once): $1 user,
    /// $2 day, $3 updated_at (the one parameter that is not an array); each user-only field as its value and a
    /// "mentioned" flag ($4 $5 … $10 $11); each metric as the user's value, its flag and the health reading
    /// (hrv $12 $13 $14 … sleep_duration $21 $22 $23). A statement per row costs this server as much again as the
    /// write itself.
    ///
    /// A day with no row is inserted whole, the rules applied to an empty day; a day with a row takes the rules
    /// on its stored values (`daily_logs.x` is the stored row's value before the update), the row locked and
    /// re-read if another writer changed it meanwhile. When every day was inserted — a first ingestion — the update is not even looked
    /// for (a one-time filter on the counts), which saves an index probe per day. Both parts see the
    /// statement's snapshot, so a row another transaction inserts after it was taken is neither
    /// inserted (the conflict) nor updated (not visible): the statement returns the days it wrote,
    /// and the caller writes them again.
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

    var rowsPerStatement: Int { PostgreSQLDriver.stagedLimit }

    /// Days per chunk (and watch items per statement): enough that a statement's fixed cost is a small share of
    /// the work, few enough that a chunk's arrays stay small.
    static let stagedLimit = 1_000

    /// `bulkUpsertDays` for one day, again while a row another writer inserted after the statement's snapshot was
    /// taken keeps it from writing (the next statement sees that row).
    func upsertDay(_ write: DayWrite, at now: Int64) throws(StorageError) {
        while try !upsertDays([write], at: now).isEmpty {}
    }

    /// `bulkUpsertDays`; returns the days it could not write (rows other writers inserted after the statement's
    /// snapshot was taken).
    func upsertDays(_ writes: ArraySlice<DayWrite>, at now: Int64) throws(StorageError) -> [Int] {
        // Column k of the chunk as one array parameter, except $3 (updated_at), the same for all.
        var columns = PostgreSQLDriver.arrayColumns(writes.map { dayParameters($0, at: now) })
        columns[2] = .pg(now)
        let written = try connection.query(PostgreSQLDriver.bulkUpsertDays, columns)
        guard written.count < writes.count else { return [] }
        let done = Set((0..<written.count).map { written.string($0, 0) + "\u{0}" + written.string($0, 1) })
        return writes.indices.filter { !done.contains(writes[$0].user.rawValue + "\u{0}" + writes[$0].day.description) }
    }

    func upsertEntries(_ entries: ArraySlice<UserEntry>, at now: Int64) throws(StorageError) -> [Int] {
        try upsertDays(ArraySlice(entries.map(DayWrite.init)), at: now).map { entries.startIndex + $0 }
    }

    /// `bulkUpsertDays`' parameters for `write`, each to be one element of its array.
    func dayParameters(_ write: DayWrite, at now: Int64) -> [String?] {
        let entry = write.entry
        let health = write.health
        return [
            write.user.rawValue, write.day.description, .pg(now),
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

    // MARK: Watch items: ids from the table's identity, which never hands one out twice.

    /// Queues an item unless it is queued already (the same user, kind, payload and occurrence:
    /// see `WatchSubmission.occurrence`): then it returns no row.
    static let insertWatchItem: StaticString = """
        INSERT INTO watch_items (user_id, kind, payload, enqueued_at, occurrence) VALUES ($1, $2, $3::json, $4, $5)
        ON CONFLICT (user_id, kind, md5(payload::text), occurrence) WHERE occurrence IS NOT NULL DO NOTHING
        RETURNING id
        """

    /// `insertWatchItem` for the staged items in one statement: parameters as its, each an array
    /// with one element per item. Ids follow the items' order (`ORDER BY` the position), and an
    /// item queued already, or twice in the chunk, is skipped as `insertWatchItem` skips it.
    static let bulkInsertWatchItems: StaticString = """
        INSERT INTO watch_items (user_id, kind, payload, enqueued_at, occurrence)
        SELECT user_id, kind, payload::json, enqueued_at, occurrence
        FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::integer[]) WITH ORDINALITY
            AS staged (user_id, kind, payload, enqueued_at, occurrence, position)
        ORDER BY position
        ON CONFLICT (user_id, kind, md5(payload::text), occurrence) WHERE occurrence IS NOT NULL DO NOTHING
        RETURNING id
        """

    func insertWatchItems(_ items: ArraySlice<WatchSubmission>) throws(StorageError) -> [Int64] {
        let rows = items.map(watchItemParameters)
        let inserted =
            rows.count == 1
            ? try connection.query(PostgreSQLDriver.insertWatchItem, rows[0])
            : try connection.query(PostgreSQLDriver.bulkInsertWatchItems, PostgreSQLDriver.arrayColumns(rows))
        return (0..<inserted.count).map { inserted.int64($0, 0) }
    }

    func watchItemParameters(_ item: WatchSubmission) -> [String?] {
        [
            item.user.rawValue, item.kind, item.payload, .pg(Store.milliseconds(item.enqueuedAt)),
            item.occurrence.map(String.init),
        ]
    }
}
