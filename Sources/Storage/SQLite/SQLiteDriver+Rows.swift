import Domain
import Foundation

/// The statements whose rows SQLite binds its own way: the merge rules of DESIGN §2 as upserts, bulk loads of
/// days and watch items as runs of up to `rowsPerStatement` rows in one VALUES list (each length prepared
/// once), and a copy's rows.
///
/// The merge rules are in SQL so that concurrent writers cannot break them: whichever statement commits last, a
/// `user` value is never replaced by a `health` one. In an `ON CONFLICT … DO UPDATE SET` every bare column name
/// is the stored row's value before the update, and `excluded.x` is the incoming one
/// (https://www.sqlite.org/lang_upsert.html).
extension SQLiteDriver {
    /// The merge rules as one upsert of a `DayWrite`. A day with no row gets the row the rules
    /// leave on an empty one (`DayWrite.applied(to: nil)`), bound column by column and inserted as
    /// it is: a new day, the common case of an ingestion, costs no expression. A stored row gets the
    /// same rules in SQL.
    ///
    /// Parameters: ?1 user, ?2 day, ?3 updated_at; the new row's columns in the order of the
    /// column list (?4 … ?15); ?16 the fields the entry mentions, as the bits of
    /// `SQLiteDriver.mentionedBits`.
    ///
    /// On a stored row: a field the entry mentions takes the new row's value, which the stored row
    /// cannot change (the user's value, or else the health reading after it, or nothing). Any other
    /// field takes the new row's value only when that is a health reading (it is nothing else then)
    /// and the stored value is not the user's. For `hrv`, its value and its source alike:
    /// `hrv = CASE WHEN ?16 & 16 OR (excluded.hrv IS NOT NULL AND hrv_source IS NOT 'user') THEN excluded.hrv
    /// ELSE hrv END`.
    static let upsertDay: String = {
        var set = ["updated_at = excluded.updated_at"]
        for (bit, field) in DayWriteColumns.personal.enumerated() {
            set.append("\(field) = CASE WHEN ?16 & \(1 << bit) THEN excluded.\(field) ELSE \(field) END")
        }
        for (index, metric) in DayWriteColumns.metrics.enumerated() {
            let taken = "?16 & \(16 << index) OR (excluded.\(metric) IS NOT NULL AND \(metric)_source IS NOT 'user')"
            for column in [metric, metric + "_source"] {
                set.append("\(column) = CASE WHEN \(taken) THEN excluded.\(column) ELSE \(column) END")
            }
        }
        return insertDays(rows: 1) + "\nON CONFLICT (user_id, day) DO UPDATE SET\n    "
            + set.joined(separator: ",\n    ")
    }()

    /// The fields `entry` mentions (set or cleared), one bit each, as `upsertDay` reads them.
    static func mentionedBits(_ entry: UserEntry) -> Int64 {
        var bits: Int64 = 0
        func note(_ unchanged: Bool, _ bit: Int64) {
            if !unchanged { bits |= bit }
        }
        note(entry.symptomSeverity.isUnchanged, 1)
        note(entry.mood.isUnchanged, 2)
        note(entry.energy.isUnchanged, 4)
        note(entry.notes.isUnchanged, 8)
        note(entry.hrv.isUnchanged, 16)
        note(entry.restingHeartRate.isUnchanged, 32)
        note(entry.stepCount.isUnchanged, 64)
        note(entry.sleepDuration.isUnchanged, 128)
        return bits
    }

    func upsertDay(_ write: DayWrite, at now: Int64) throws(StorageError) {
        try connection.withStatement(named: "upsertDay", sql: { SQLiteDriver.upsertDay }) {
            (statement) throws(StorageError) in
            try bindRow(of: write, at: now, to: statement, from: 1)
            try statement.bind(16, SQLiteDriver.mentionedBits(write.entry))
            try statement.run()
        }
    }

    /// Inserts the rows `writes` leave on days with no row, all in one statement (`insertDays`), and returns no
    /// position; when the database refuses any of them (a day already stored, a constraint) the statement fails
    /// whole, SQLite undoes it, and the store writes each day with `upsertDay`.
    func upsertDays(_ writes: ArraySlice<DayWrite>, at now: Int64) throws(StorageError) -> [Int] {
        try runRows(.insertDays, count: writes.count, writes) { (write, statement, first) throws(StorageError) in
            try bindRow(of: write, at: now, to: statement, from: first)
        }
        return []
    }

    /// `upsertNonClearingEntries`: an entry that would change nothing of its stored day leaves the row unwritten.
    func upsertEntries(_ entries: ArraySlice<UserEntry>, at now: Int64) throws(StorageError) -> [Int] {
        try runRows(.upsertNonClearingEntries, count: entries.count, entries) {
            (entry, statement, first) throws(StorageError) in
            try bindRow(of: DayWrite(entry), at: now, to: statement, from: first)
        }
        return []
    }

    var rowsPerStatement: Int { SQLiteDriver.rowsPerInsert }

    var daysPerStatement: Int { SQLiteDriver.rowsPerInsert }

    /// Queues a run of items in one statement, ids following the largest id in use in order (an item queued
    /// already is skipped, its id unused). Without that SQLite hands the largest id out again once its item has
    /// moved to the dead letters, and when that new item failed too, its dead letter could not take the id
    /// (https://www.sqlite.org/autoinc.html); both maxima are read from primary keys, inside the write
    /// transaction that inserts.
    func insertWatchItems(_ items: ArraySlice<WatchSubmission>) throws(StorageError) -> [Int64] {
        let largest = Int64(
            try connection.scalarInt(
                """
                SELECT max(coalesce((SELECT max(id) FROM watch_items), 0),
                    coalesce((SELECT max(id) FROM watch_dead_letters), 0))
                """))
        return try runRows(.insertWatchItems, count: items.count, items.enumerated()) {
            (numbered, statement, first) throws(StorageError) in
            let item = numbered.element
            try statement.bind(first, largest + 1 + Int64(numbered.offset))
            try statement.bind(first + 1, item.user.rawValue)
            try statement.bind(first + 2, item.kind)
            try statement.bind(first + 3, item.payload)
            try statement.bind(first + 4, Store.milliseconds(item.enqueuedAt))
            try statement.bind(first + 5, item.occurrence.map(Int64.init))
        }
    }

    /// Runs the many-row statement `kind` for `count` rows (built and prepared the first time) once, with
    /// `rows` bound in order: `bind` binds a row's parameters from `first`, the next row's start the
    /// statement's columns after. Returns the integers the statement returns, if any (`RETURNING id`).
    @discardableResult
    func runRows<Rows: Sequence>(
        _ kind: ManyRowStatement, count: Int, _ rows: Rows,
        bind: (Rows.Element, Statement, Int32) throws(StorageError) -> Void
    ) throws(StorageError) -> [Int64] {
        precondition((1...SQLiteDriver.rowsPerInsert).contains(count), "a run of 1 to rowsPerInsert rows")
        let columns = kind.columns
        return try connection.withStatement(named: kind.name(rows: count), sql: { kind.sql(rows: count) }) {
            (statement) throws(StorageError) in
            var first: Int32 = 1
            for row in rows {
                try bind(row, statement, first)
                first += columns
            }
            var returned: [Int64] = []
            while try statement.step() { returned.append(statement.int64(0)) }
            return returned
        }
    }

    /// The row `write` leaves on a day with no row (`DayWrite.applied(to: nil)`), as parameters `first` …
    /// `first + 14` in the order of `upsertDay`'s column list.
    private func bindRow(of write: DayWrite, at now: Int64, to statement: Statement, from first: Int32)
        throws(StorageError)
    {
        let row = write.applied(to: nil)
        try statement.bind(first, write.user.rawValue)
        try statement.bind(first + 1, write.day.description)
        try statement.bind(first + 2, now)
        try statement.bind(first + 3, row.symptomSeverity)
        try statement.bind(first + 4, row.mood)
        try statement.bind(first + 5, row.energy)
        try statement.bind(first + 6, row.notes)
        try statement.bind(first + 7, row.hrv?.value)
        try statement.bind(first + 8, (row.hrv?.source).map(SQLiteDriver.text))
        try statement.bind(first + 9, row.restingHeartRate?.value)
        try statement.bind(first + 10, (row.restingHeartRate?.source).map(SQLiteDriver.text))
        try statement.bind(first + 11, row.stepCount?.value)
        try statement.bind(first + 12, (row.stepCount?.source).map(SQLiteDriver.text))
        try statement.bind(first + 13, row.sleepDuration?.value)
        try statement.bind(first + 14, (row.sleepDuration?.source).map(SQLiteDriver.text))
    }

    /// The statements that write many rows at once, in runs of up to `rowsPerInsert` (a single watch item's
    /// insert is a run of one).
    enum ManyRowStatement: CaseIterable {
        case insertDays, upsertNonClearingEntries, insertWatchItems

        var columns: Int32 {
            switch self {
            case .insertDays, .upsertNonClearingEntries: SQLiteDriver.dayColumns
            case .insertWatchItems: SQLiteDriver.watchItemColumns
            }
        }

        func sql(rows: Int) -> String {
            switch self {
            case .insertDays: SQLiteDriver.insertDays(rows: rows)
            case .upsertNonClearingEntries: SQLiteDriver.upsertNonClearingEntries(rows: rows)
            case .insertWatchItems: SQLiteDriver.insertWatchItems(rows: rows)
            }
        }

        /// The prepared statement's name for a run of `rows`, built once.
        func name(rows: Int) -> String {
            ManyRowStatement.names[self]![rows]
        }

        private static let names = Dictionary(
            uniqueKeysWithValues: allCases.map { kind in
                (kind, (0...SQLiteDriver.rowsPerInsert).map { "\(kind)-\($0)" })
            })
    }

    /// A source as the `*_source` columns spell it, bound without a copy.
    static func text(_ source: Source) -> StaticString {
        switch source {
        case .user: "user"
        case .health: "health"
        }
    }

    /// Rows a many-row statement writes at most at once (`ManyRowStatement`): one statement's fixed cost (its
    /// start, its cursors, its end) shared by 32 rows made a bulk load of new days faster than a statement a day
    /// (docs/benchmarks.md). A shorter run takes a statement of its own length (each length prepared once), so
    /// the few watch items a batch of days carries are one statement too, not one each.
    static let rowsPerInsert = 32
    static let dayColumns = Int32(DayWriteColumns.all.count)

    /// `upsertDay`'s insert of `rows` rows, without its `ON CONFLICT` clause: a stored day makes the statement
    /// fail.
    static func insertDays(rows: Int) -> String {
        "INSERT INTO daily_logs (\(DayWriteColumns.all.joined(separator: ", "))) VALUES \(rowsOfParameters(rows: rows))"
    }

    /// `upsertDay` for `rows` entries that clear no field, in order (a later row of the same day updates the
    /// row an earlier one left). For such an entry a field it mentions is a value, and one it does not is
    /// `NULL` in its row, so "the field the entry mentions" is the field whose new value is not `NULL`, which
    /// needs no parameter of its own.
    ///
    /// An entry that would change no value of its stored day leaves the row as it is, `updated_at` too, and
    /// its page unwritten: a drain after an ingestion finds most items' effect already stored, merged into
    /// their day as it was (`PlannedDays`), and would otherwise rewrite every page those days are on.
    static func upsertNonClearingEntries(rows: Int) -> String {
        var set = ["updated_at = excluded.updated_at"]
        var changes: [String] = []
        for field in DayWriteColumns.personal {
            set.append("\(field) = coalesce(excluded.\(field), \(field))")
            changes.append("coalesce(excluded.\(field), \(field)) IS NOT \(field)")
        }
        for metric in DayWriteColumns.metrics {
            set.append("\(metric) = coalesce(excluded.\(metric), \(metric))")
            set.append(
                "\(metric)_source = CASE WHEN excluded.\(metric) IS NULL THEN \(metric)_source "
                    + "ELSE excluded.\(metric)_source END")
            changes.append(
                "excluded.\(metric) IS NOT NULL AND (excluded.\(metric) IS NOT \(metric) "
                    + "OR excluded.\(metric)_source IS NOT \(metric)_source)")
        }
        return insertDays(rows: rows) + "\nON CONFLICT (user_id, day) DO UPDATE SET\n    "
            + set.joined(separator: ",\n    ") + "\nWHERE " + changes.joined(separator: "\n    OR ")
    }

    static let watchItemColumns: Int32 = 6

    static func insertWatchItems(rows: Int) -> String {
        """
        INSERT INTO watch_items (id, user_id, kind, payload, enqueued_at, occurrence)
        VALUES \(rowsOfParameters(columns: watchItemColumns, rows: rows))
        ON CONFLICT (user_id, kind, payload, occurrence) WHERE occurrence IS NOT NULL DO NOTHING
        RETURNING id
        """
    }

    /// `(?1, …, ?15), (?16, …)`: `rows` rows of `columns` parameters.
    static func rowsOfParameters(columns: Int32 = dayColumns, rows: Int) -> String {
        (0..<rows).map { row in
            let first = Int32(row) * columns + 1
            return "(" + (first..<first + columns).map { "?\($0)" }.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
    }
}
