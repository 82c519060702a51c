import Domain
import Foundation

/// The statements whose rows PostgreSQL binds its own way: the merge rules of DESIGN §2 as upserts, a chunk of
/// days copied into a staging table and merged from it by one statement, a day alone and watch items as one array
/// parameter per column (`unnest`), and a copy's rows.
///
/// The merge rules are the same as SQLite's (`SQLiteDriver.upsertDay`), in this dialect, written once for both
/// statements that apply them (`mergeRules`). The row an update changes is locked for the statement, so
/// concurrent writers apply one after the other and a `user` value is never replaced by a `health` one.
extension PostgreSQLDriver {
    /// Each staged column after `user_id` and `day` and its type, in the order `bulkUpsertDays` binds them (from
    /// $4) and `staged_days` holds them: each personal field as its value and a "mentioned" flag; each metric as
    /// the user's value, its flag and the health reading (`hrv_user`, `hrv_set`, `hrv_health`).
    private static let stagedColumns: [(name: String, type: String)] = {
        let personal = zip(DayWriteColumns.personal, ["integer", "integer", "integer", "text"])
        let metrics = zip(DayWriteColumns.metrics, ["float8", "float8", "bigint", "float8"])
        return personal.flatMap { field, type in [(field, type), (field + "_set", "boolean")] }
            + metrics.flatMap { metric, type in
                [(metric + "_user", type), (metric + "_set", "boolean"), (metric + "_health", type)]
            }
    }()

    /// The merge rules over a staged day `s` and its stored row `daily_logs`, for each column of
    /// `DayWriteColumns.all` after `updated_at`: its value on a day with no row (`inserted`: the rules applied to
    /// an empty day) and on a day with one (`updated`, from the stored row's values before the update).
    ///
    /// A metric's rules, for `hrv`: inserted, the user's value when set, else the reading; updated, the reading
    /// when there is one and the value the user's is not (the one set now, or else the stored one), else the
    /// user's value when set, else the stored one. Its source follows the value. A personal field takes the
    /// staged value when the write mentions it, even `NULL`.
    private static let mergeRules: (inserted: [String], updated: [(column: String, value: String)]) = {
        var inserted = DayWriteColumns.personal.map { "s.\($0)" }
        var updated = DayWriteColumns.personal.map { field in
            (field, "CASE WHEN s.\(field)_set THEN s.\(field) ELSE daily_logs.\(field) END")
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
                (
                    metric,
                    "CASE WHEN \(healthWins) THEN \(health) WHEN \(set) THEN \(user) ELSE daily_logs.\(metric) END"
                ))
            updated.append(
                (
                    metric + "_source",
                    "CASE WHEN \(healthWins) THEN 'health' WHEN \(set) THEN CASE WHEN \(user) IS NULL THEN NULL "
                        + "ELSE 'user' END ELSE daily_logs.\(metric)_source END"
                ))
        }
        return (inserted, updated)
    }()

    /// The merge rules for a chunk of days bound as arrays, in one statement (a chunk holds each user-day at most
    /// once): $1 user, $2 day, $3 updated_at (the one parameter that is not an array), then `stagedColumns` from
    /// $4. A day alone goes this way (`upsertDay`), and a chunk too short to be worth a COPY.
    ///
    /// A day with no row is inserted whole; a day with a row takes the rules on its stored values, the row locked
    /// and re-read if another writer changed it meanwhile. When every day was inserted — a first ingestion — the
    /// update is not even looked for (a one-time filter on the counts), which saves an index probe per day. Both
    /// parts see the statement's snapshot, so a row another transaction inserts after it was taken is neither
    /// inserted (the conflict) nor updated (not visible): the statement returns the days it wrote, and the caller
    /// writes them again. https://www.postgresql.org/docs/15/queries-with.html#QUERIES-WITH-MODIFYING
    static let bulkUpsertDays: String = {
        let arrays =
            ["$1::text[]", "$2::date[]"] + stagedColumns.enumerated().map { "$\($0.offset + 4)::\($0.element.type)[]" }
        let inserted = ["s.user_id", "s.day", "$3::bigint"] + mergeRules.inserted
        let updated = ["updated_at = $3::bigint"] + mergeRules.updated.map { "\($0.column) = \($0.value)" }
        return """
            WITH s AS (
                SELECT * FROM unnest(\(arrays.joined(separator: ", ")))
                AS staged (user_id, day, \(stagedColumns.map(\.name).joined(separator: ", ")))),
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

    /// Empties the session's staging table, creating it first if this session has none (a rolled-back transaction
    /// takes a table it created with it), then copies a chunk of days into it (`CopyTextRows`, one row per day:
    /// `user_id`, `day`, `stagedColumns`). A temporary table is the session's alone and written without the
    /// server's log; its rows go at each commit too, so no day outlives the transaction that staged it. Its key
    /// finds a staged day by its user and day (`mergeStagedDays`). https://www.postgresql.org/docs/15/sql-createtable.html
    static let copyStagedDays: String = {
        let columns = stagedColumns.map { "\($0.name) \($0.type)" }.joined(separator: ", ")
        return """
            CREATE TEMPORARY TABLE IF NOT EXISTS staged_days (user_id text NOT NULL, day date NOT NULL, \(columns),
                PRIMARY KEY (user_id, day)) ON COMMIT DELETE ROWS;
            TRUNCATE pg_temp.staged_days;
            COPY pg_temp.staged_days FROM STDIN
            """
    }()

    /// The merge rules for the days `copyStagedDays` staged, in one statement: $1 updated_at. A day with no row is
    /// inserted as the rules leave an empty day; a day with one — stored before, or inserted by another writer
    /// since — is updated by the rules on its stored values, its staged columns found by the staging table's key
    /// (`excluded` holds only the row that would have been inserted). The row is locked for the update and
    /// re-read if another writer changed it meanwhile, so every staged day is written.
    /// https://www.postgresql.org/docs/15/sql-insert.html#SQL-ON-CONFLICT
    static let mergeStagedDays: String = {
        let inserted = ["s.user_id", "s.day", "$1::bigint"] + mergeRules.inserted
        return """
            INSERT INTO daily_logs (\(DayWriteColumns.all.joined(separator: ", ")))
            SELECT \(inserted.joined(separator: ",\n    "))
            FROM pg_temp.staged_days AS s
            ON CONFLICT (user_id, day) DO UPDATE SET
                updated_at = excluded.updated_at,
                (\(mergeRules.updated.map(\.column).joined(separator: ", "))) = (
                    SELECT \(mergeRules.updated.map(\.value).joined(separator: ",\n            "))
                    FROM pg_temp.staged_days AS s
                    WHERE s.user_id = excluded.user_id AND s.day = excluded.day)
            """
    }()

    var rowsPerStatement: Int { PostgreSQLDriver.stagedLimit }

    var daysPerStatement: Int { PostgreSQLDriver.copiedLimit }

    /// Watch items per statement (and entries per chunk of a drain): enough that a statement's fixed cost is a
    /// small share of the work, few enough that a chunk's arrays stay small.
    static let stagedLimit = 1_000

    /// Days per COPY and merge: the staging table's emptying, the merge's planning (the emptied table's statistics
    /// are new) and the statements' round trips are then a small share of a bulk load.
    static let copiedLimit = 4_096

    /// Chunks shorter than this go as arrays (`bulkUpsertDays`): a COPY costs the server less per day than the arrays
    /// and more per chunk, and from about this length on it is no slower (docs/benchmarks.md, "Measurements behind
    /// the code").
    static let copiedFrom = 1_024

    /// `bulkUpsertDays` for one day, again while a row another writer inserted after the statement's snapshot was
    /// taken keeps it from writing (the next statement sees that row).
    func upsertDay(_ write: DayWrite, at now: Int64) throws(StorageError) {
        while try !upsertBound([write], at: now).isEmpty {}
    }

    /// A chunk's days copied into the staging table and merged from it (`copyStagedDays`, `mergeStagedDays`); a
    /// short chunk as arrays (`bulkUpsertDays`), which returns the days it could not write (rows other writers
    /// inserted after the statement's snapshot was taken).
    func upsertDays(_ writes: ArraySlice<DayWrite>, at now: Int64) throws(StorageError) -> [Int] {
        guard writes.count >= PostgreSQLDriver.copiedFrom else { return try upsertBound(writes, at: now) }
        if try !storedDaysExist(writes), try copyNewDays(writes, at: now) { return [] }
        try connection.copy(PostgreSQLDriver.copyStagedDays, rows: writes.count) { index, rows in
            let write = writes[writes.startIndex + index]
            rows.append(write.user.rawValue)
            rows.append(write.day.description)
            PostgreSQLDriver.appendStaged(write, to: &rows)
            rows.endRow()
        }
        _ = try connection.query(named: "mergeStagedDays", PostgreSQLDriver.mergeStagedDays, [.pg(now)])
        return []
    }

    /// `bulkUpsertDays`; returns the days it could not write.
    private func upsertBound(_ writes: ArraySlice<DayWrite>, at now: Int64) throws(StorageError) -> [Int] {
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

    /// `bulkUpsertDays`' parameters for `write`, each to be one element of its array: `user_id`, `day`,
    /// `updated_at`, then `stagedColumns`.
    func dayParameters(_ write: DayWrite, at now: Int64) -> [String?] {
        var parameters: [String?] = [write.user.rawValue, write.day.description, .pg(now)]
        parameters.reserveCapacity(3 + PostgreSQLDriver.stagedColumns.count)
        PostgreSQLDriver.appendStaged(write, to: &parameters)
        return parameters
    }

    /// `write`'s values in the order of `stagedColumns`, appended to a row of `staged_days` or to
    /// `dayParameters`.
    /// $1 users, $2 first days, $3 last days, arrays of one element per user: whether any user has a stored day
    /// between their first and last (one index range each).
    static let storedDaysExist: StaticString = """
        SELECT EXISTS (SELECT 1 FROM unnest($1::text[], $2::date[], $3::date[]) AS k (user_id, first, last)
            JOIN daily_logs AS d ON d.user_id = k.user_id AND d.day BETWEEN k.first AND k.last)
        """

    /// Whether a user of the chunk has a stored day between their first and last day in it (one index range each).
    private func storedDaysExist(_ writes: ArraySlice<DayWrite>) throws(StorageError) -> Bool {
        var ranges: [UserID: (first: Day, last: Day)] = [:]
        for write in writes {
            let range = ranges[write.user] ?? (write.day, write.day)
            ranges[write.user] = (min(range.first, write.day), max(range.last, write.day))
        }
        let users = ranges.keys.sorted { $0.rawValue < $1.rawValue }
        let stored = try connection.query(
            named: "storedDaysExist", "\(Self.storedDaysExist)",
            [
                Self.arrayLiteral(users.map(\.rawValue)),
                Self.arrayLiteral(users.map { ranges[$0]!.first.description }),
                Self.arrayLiteral(users.map { ranges[$0]!.last.description }),
            ])
        return stored.bool(0, 0)
    }

    /// A first load's days, which have no stored row to merge with: copied straight into `daily_logs` as the merge
    /// rules insert them (`mergeRules.inserted`), without the staging table and the merge, which cost the server
    /// most of a first load's time (docs/benchmarks.md). Taken when `storedDaysExist` finds none, and undone alone if
    /// a day was stored meanwhile (another writer's: the key refuses the copy), to be merged as any chunk. Returns
    /// whether the days were copied.
    private static let copyNewDays = "COPY daily_logs (\(DayWriteColumns.all.joined(separator: ", "))) FROM STDIN"

    func copyNewDays(_ writes: ArraySlice<DayWrite>, at now: Int64) throws(StorageError) -> Bool {
        try connection.execute("SAVEPOINT new_days")
        do {
            try connection.copy(Self.copyNewDays, rows: writes.count) { index, rows in
                let write = writes[writes.startIndex + index]
                rows.append(write.user.rawValue)
                rows.append(write.day.description)
                rows.append(now)
                Self.appendInserted(write, to: &rows)
                rows.endRow()
            }
        } catch .postgresql(sqlState: "23505", _, _) {
            try connection.execute("ROLLBACK TO SAVEPOINT new_days; RELEASE SAVEPOINT new_days")
            return false
        }
        try connection.execute("RELEASE SAVEPOINT new_days")
        return true
    }

    /// A day's columns as the merge rules insert it on a day with no row (`mergeRules.inserted`): each personal
    /// field's new value; each metric, the person's value when the write sets one, else the reading, with its source.
    private static func appendInserted(_ write: DayWrite, to rows: inout CopyTextRows) {
        let entry = write.entry
        rows.append(entry.symptomSeverity.newValue)
        rows.append(entry.mood.newValue)
        rows.append(entry.energy.newValue)
        rows.append(entry.notes.newValue)
        func metric<Value: Numeric & CustomStringConvertible>(_ patch: Patch<Value>, _ reading: Value?) {
            let person = patch.isUnchanged ? nil : patch.newValue
            rows.append(person ?? reading)
            rows.append(person != nil ? "user" : reading != nil ? "health" : nil)
        }
        metric(entry.hrv, write.health.hrv)
        metric(entry.restingHeartRate, write.health.restingHeartRate)
        metric(entry.stepCount, write.health.stepCount)
        metric(entry.sleepDuration, write.health.sleepDuration)
    }

    private static func appendStaged(_ write: DayWrite, to values: inout some StagedValues) {
        let entry = write.entry
        let health = write.health
        values.append(entry.symptomSeverity)
        values.append(entry.mood)
        values.append(entry.energy)
        values.append(entry.notes.newValue)
        values.append(!entry.notes.isUnchanged)
        values.append(entry.hrv, health.hrv)
        values.append(entry.restingHeartRate, health.restingHeartRate)
        values.append(entry.stepCount, health.stepCount)
        values.append(entry.sleepDuration, health.sleepDuration)
    }

    // MARK: Watch items: ids from the table's identity, which never hands one out twice.

    /// Queues the staged items in one statement, each unless it is queued already (the same user, kind, payload
    /// and occurrence: see `WatchSubmission.occurrence`) or earlier in the chunk: $1 users, $2 kinds, $3 payloads,
    /// $4 enqueued_at, $5 occurrences, each an array with one element per item. Ids follow the items' order
    /// (`ORDER BY` the position); an item skipped returns no row.
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
        let rows = items.map { item -> [String?] in
            [
                item.user.rawValue, item.kind, item.payload, .pg(Store.milliseconds(item.enqueuedAt)),
                item.occurrence.map(String.init),
            ]
        }
        let inserted = try connection.query(PostgreSQLDriver.bulkInsertWatchItems, PostgreSQLDriver.arrayColumns(rows))
        return (0..<inserted.count).map { inserted.int64($0, 0) }
    }
}

/// Where a day's staged values go, each in libpq's text format: a row of `COPY … FROM STDIN` (`CopyTextRows`), or
/// parameters (`String?.pg`).
protocol StagedValues {
    mutating func append(_ text: String?)
    mutating func append(_ number: (some Numeric & CustomStringConvertible)?)
    mutating func append(_ flag: Bool)
}

extension StagedValues {
    /// A number only a person writes: its value, and whether the write mentions it.
    mutating func append<Value: Numeric & CustomStringConvertible>(_ patch: Patch<Value>) {
        append(patch.newValue)
        append(!patch.isUnchanged)
    }

    /// A metric: the person's value, whether the write mentions it, and the health reading.
    mutating func append<Value: Numeric & CustomStringConvertible>(_ patch: Patch<Value>, _ reading: Value?) {
        append(patch)
        append(reading)
    }
}

extension CopyTextRows: StagedValues {}

/// Numbers as `String?.pg` writes them: their description.
extension [String?]: StagedValues {
    mutating func append(_ number: (some Numeric & CustomStringConvertible)?) { append(number.map(\.description)) }
    mutating func append(_ flag: Bool) { append(String?.pg(flag)) }
}
