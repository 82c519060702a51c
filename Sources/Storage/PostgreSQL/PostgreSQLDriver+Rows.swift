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
    /// $2 day, $3 updated_at (the one parameter that is not an array); each personal field as its value and a
    /// "mentioned" flag ($4 $5 … $10 $11); each metric as the user's value, its flag and the health reading
    /// (hrv $12 $13 $14 … sleep_duration $21 $22 $23). A statement per row costs this server as much again as the
    /// write itself.
    ///
    /// A day with no row is inserted whole, the rules applied to an empty day; a day with a row takes the rules
    /// on its stored values (`daily_logs.x` is the stored row's value before the update), the row locked and
    /// re-read if another writer changed it meanwhile. When every day was inserted — a first ingestion — the
    /// update is not even looked for (a one-time filter on the counts), which saves an index probe per day. Both
    /// parts see the statement's snapshot, so a row another transaction inserts after it was taken is neither
    /// inserted (the conflict) nor updated (not visible): the statement returns the days it wrote, and the caller
    /// writes them again. https://www.postgresql.org/docs/15/queries-with.html#QUERIES-WITH-MODIFYING
    ///
    /// A metric's rules, for `hrv` (staged as `hrv_user`, `hrv_set`, `hrv_health`): inserted, the user's value
    /// when set, else the reading; updated, the reading when there is one and the value the user's is not (the
    /// one set now, or else the stored one), else the user's value when set, else the stored one. Its source
    /// follows the value.
    static let bulkUpsertDays: String = {
        // Each staged column and its array's type, in parameter order from $4.
        let personal = zip(DayWriteColumns.personal, ["integer", "integer", "integer", "text"])
        let metrics = zip(DayWriteColumns.metrics, ["float8", "float8", "bigint", "float8"])
        let staged =
            personal.flatMap { field, type in [(field, type), (field + "_set", "boolean")] }
            + metrics.flatMap { metric, type in
                [(metric + "_user", type), (metric + "_set", "boolean"), (metric + "_health", type)]
            }
        let arrays = ["$1::text[]", "$2::text[]"] + staged.enumerated().map { "$\($0.offset + 4)::\($0.element.1)[]" }
        var inserted = ["s.user_id", "s.day", "$3::bigint"] + DayWriteColumns.personal.map { "s.\($0)" }
        var updated = ["updated_at = $3::bigint"]
        for field in DayWriteColumns.personal {
            updated.append("\(field) = CASE WHEN s.\(field)_set THEN s.\(field) ELSE daily_logs.\(field) END")
        }
        for metric in DayWriteColumns.metrics {
            let (user, set, health) = ("s.\(metric)_user", "s.\(metric)_set", "s.\(metric)_health")
            inserted.append("CASE WHEN \(set) AND \(user) IS NOT NULL THEN \(user) ELSE \(health) END")
            inserted.append(
                "CASE WHEN \(set) AND \(user) IS NOT NULL THEN 'user' WHEN \(health) IS NOT NULL THEN 'health' END")
            let healthWins =
                "\(health) IS NOT NULL AND NOT (CASE WHEN \(set) THEN \(user) IS NOT NULL "
                + "ELSE daily_logs.\(metric)_source IS NOT DISTINCT FROM 'user' END)"
            updated.append(
                "\(metric) = CASE WHEN \(healthWins) THEN \(health) WHEN \(set) THEN \(user) "
                    + "ELSE daily_logs.\(metric) END")
            updated.append(
                "\(metric)_source = CASE WHEN \(healthWins) THEN 'health' "
                    + "WHEN \(set) THEN CASE WHEN \(user) IS NULL THEN NULL ELSE 'user' END "
                    + "ELSE daily_logs.\(metric)_source END")
        }
        return """
            WITH s AS (
                SELECT * FROM unnest(\(arrays.joined(separator: ", ")))
                AS staged (user_id, day, \(staged.map(\.0).joined(separator: ", ")))),
            inserted AS (
                INSERT INTO daily_logs (\(DayWriteColumns.all.joined(separator: ", ")))
                SELECT \(inserted.joined(separator: ",\n        "))
                FROM s
                ON CONFLICT (user_id, day) DO NOTHING
                RETURNING user_id, day),
            updated AS (
                UPDATE daily_logs SET
                    \(updated.joined(separator: ",\n        "))
                FROM s
                WHERE daily_logs.user_id = s.user_id AND daily_logs.day = s.day
                    AND (SELECT count(*) FROM inserted) < (SELECT count(*) FROM s)
                RETURNING daily_logs.user_id, daily_logs.day)
            SELECT user_id, day FROM inserted UNION ALL SELECT user_id, day FROM updated
            """
    }()

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
        let written = try connection.query(named: "bulkUpsertDays", PostgreSQLDriver.bulkUpsertDays, columns)
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
