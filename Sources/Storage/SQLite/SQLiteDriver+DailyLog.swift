import Domain

/// The merge rules of DESIGN §2, in SQL so that concurrent writers cannot break them: whichever
/// statement commits last, a `user` value is never replaced by a `health` one. In an `ON CONFLICT
/// … DO UPDATE SET` every bare column name is the stored row's value before the update, and
/// `excluded.x` is the incoming one (https://www.sqlite.org/lang_upsert.html).
extension SQLiteDriver {
    /// The merge rules as one upsert of a `DayWrite`: the user's entry, then the health sync.
    ///
    /// Parameters: ?1 user, ?2 day, ?3 updated_at. User-only fields: value and "mentioned" flag
    /// (symptom_severity ?4 ?5, mood ?6 ?7, energy ?8 ?9, notes ?10 ?11). Metrics: the user's value,
    /// its "mentioned" flag, and the health reading (hrv ?12 ?13 ?14, resting_heart_rate ?15 ?16 ?17,
    /// step_count ?18 ?19 ?20, sleep_duration ?21 ?22 ?23).
    ///
    /// For each metric: after the entry, the field is the user's value (or cleared) if mentioned,
    /// else unchanged; then a health reading replaces it unless its source is now `user`.
    static let upsertDay: StaticString = """
        INSERT INTO daily_logs (
            user_id, day, updated_at, symptom_severity, mood, energy, notes,
            hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
            step_count, step_count_source, sleep_duration, sleep_duration_source)
        VALUES (
            ?1, ?2, ?3, ?4, ?6, ?8, ?10,
            CASE WHEN ?13 AND ?12 IS NOT NULL THEN ?12 ELSE ?14 END,
            CASE WHEN ?13 AND ?12 IS NOT NULL THEN 'user' WHEN ?14 IS NOT NULL THEN 'health' END,
            CASE WHEN ?16 AND ?15 IS NOT NULL THEN ?15 ELSE ?17 END,
            CASE WHEN ?16 AND ?15 IS NOT NULL THEN 'user' WHEN ?17 IS NOT NULL THEN 'health' END,
            CASE WHEN ?19 AND ?18 IS NOT NULL THEN ?18 ELSE ?20 END,
            CASE WHEN ?19 AND ?18 IS NOT NULL THEN 'user' WHEN ?20 IS NOT NULL THEN 'health' END,
            CASE WHEN ?22 AND ?21 IS NOT NULL THEN ?21 ELSE ?23 END,
            CASE WHEN ?22 AND ?21 IS NOT NULL THEN 'user' WHEN ?23 IS NOT NULL THEN 'health' END)
        ON CONFLICT (user_id, day) DO UPDATE SET
            updated_at = ?3,
            symptom_severity = CASE WHEN ?5 THEN ?4 ELSE symptom_severity END,
            mood = CASE WHEN ?7 THEN ?6 ELSE mood END,
            energy = CASE WHEN ?9 THEN ?8 ELSE energy END,
            notes = CASE WHEN ?11 THEN ?10 ELSE notes END,
            hrv = CASE
                WHEN ?14 IS NOT NULL
                    AND NOT (CASE WHEN ?13 THEN ?12 IS NOT NULL ELSE hrv_source IS 'user' END)
                    THEN ?14
                WHEN ?13 THEN ?12
                ELSE hrv END,
            hrv_source = CASE
                WHEN ?14 IS NOT NULL
                    AND NOT (CASE WHEN ?13 THEN ?12 IS NOT NULL ELSE hrv_source IS 'user' END)
                    THEN 'health'
                WHEN ?13 THEN CASE WHEN ?12 IS NULL THEN NULL ELSE 'user' END
                ELSE hrv_source END,
            resting_heart_rate = CASE
                WHEN ?17 IS NOT NULL
                    AND NOT (CASE WHEN ?16 THEN ?15 IS NOT NULL ELSE resting_heart_rate_source IS 'user' END)
                    THEN ?17
                WHEN ?16 THEN ?15
                ELSE resting_heart_rate END,
            resting_heart_rate_source = CASE
                WHEN ?17 IS NOT NULL
                    AND NOT (CASE WHEN ?16 THEN ?15 IS NOT NULL ELSE resting_heart_rate_source IS 'user' END)
                    THEN 'health'
                WHEN ?16 THEN CASE WHEN ?15 IS NULL THEN NULL ELSE 'user' END
                ELSE resting_heart_rate_source END,
            step_count = CASE
                WHEN ?20 IS NOT NULL
                    AND NOT (CASE WHEN ?19 THEN ?18 IS NOT NULL ELSE step_count_source IS 'user' END)
                    THEN ?20
                WHEN ?19 THEN ?18
                ELSE step_count END,
            step_count_source = CASE
                WHEN ?20 IS NOT NULL
                    AND NOT (CASE WHEN ?19 THEN ?18 IS NOT NULL ELSE step_count_source IS 'user' END)
                    THEN 'health'
                WHEN ?19 THEN CASE WHEN ?18 IS NULL THEN NULL ELSE 'user' END
                ELSE step_count_source END,
            sleep_duration = CASE
                WHEN ?23 IS NOT NULL
                    AND NOT (CASE WHEN ?22 THEN ?21 IS NOT NULL ELSE sleep_duration_source IS 'user' END)
                    THEN ?23
                WHEN ?22 THEN ?21
                ELSE sleep_duration END,
            sleep_duration_source = CASE
                WHEN ?23 IS NOT NULL
                    AND NOT (CASE WHEN ?22 THEN ?21 IS NOT NULL ELSE sleep_duration_source IS 'user' END)
                    THEN 'health'
                WHEN ?22 THEN CASE WHEN ?21 IS NULL THEN NULL ELSE 'user' END
                ELSE sleep_duration_source END
        """

    /// Stores what a person typed for a day, creating the user (UTC) if new. Runs in its own
    /// transaction; the values are assumed valid (`UserEntry.validate()`), and the database's CHECK
    /// constraints reject any that are not.
    func write(_ entry: UserEntry) throws(StorageError) {
        try write { () throws(StorageError) in try apply(entry) }
    }

    /// Merges one day of health metrics, creating the user (UTC) if new. Runs in its own transaction.
    func write(_ metrics: HealthMetrics) throws(StorageError) {
        try write { () throws(StorageError) in try apply(metrics) }
    }

    func apply(_ entry: UserEntry) throws(StorageError) {
        try apply(DayWrite(entry))
    }

    func apply(_ metrics: HealthMetrics) throws(StorageError) {
        guard !metrics.isEmpty else { return }
        try apply(DayWrite(metrics))
    }

    func apply(_ write: DayWrite) throws(StorageError) {
        try ensureUser(write.user)
        try connection.withStatement(SQLiteDriver.upsertDay) { (statement) throws(StorageError) in
            let entry = write.entry
            let health = write.health
            try statement.bind(1, write.user.rawValue)
            try statement.bind(2, write.day.description)
            try statement.bind(3, nowMilliseconds)
            try statement.bind(4, entry.symptomSeverity.newValue)
            try statement.bind(5, !entry.symptomSeverity.isUnchanged)
            try statement.bind(6, entry.mood.newValue)
            try statement.bind(7, !entry.mood.isUnchanged)
            try statement.bind(8, entry.energy.newValue)
            try statement.bind(9, !entry.energy.isUnchanged)
            try statement.bind(10, entry.notes.newValue)
            try statement.bind(11, !entry.notes.isUnchanged)
            try statement.bind(12, entry.hrv.newValue)
            try statement.bind(13, !entry.hrv.isUnchanged)
            try statement.bind(14, health.hrv)
            try statement.bind(15, entry.restingHeartRate.newValue)
            try statement.bind(16, !entry.restingHeartRate.isUnchanged)
            try statement.bind(17, health.restingHeartRate)
            try statement.bind(18, entry.stepCount.newValue)
            try statement.bind(19, !entry.stepCount.isUnchanged)
            try statement.bind(20, health.stepCount)
            try statement.bind(21, entry.sleepDuration.newValue)
            try statement.bind(22, !entry.sleepDuration.isUnchanged)
            try statement.bind(23, health.sleepDuration)
            try statement.run()
        }
    }

    /// The user's log for `day`, or `nil` when nothing was stored for it.
    func dailyLog(user: UserID, day: Day) throws(StorageError) -> DailyLog? {
        // The column order is the one `decodeDailyLog` reads.
        try connection.withStatement(
            """
            SELECT user_id, day, symptom_severity, mood, energy, notes,
                hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
                step_count, step_count_source, sleep_duration, sleep_duration_source
            FROM daily_logs
            WHERE user_id = ?1 AND day = ?2
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, user.rawValue)
            try statement.bind(2, day.description)
            return try statement.step() ? decodeDailyLog(statement, user: user) : nil
        }
    }

    /// The user's logs from `first` through `last` (either open when `nil`), in day order.
    func dailyLogs(user: UserID, from first: Day? = nil, through last: Day? = nil) throws(StorageError)
        -> [DailyLog]
    {
        try connection.withStatement(
            """
            SELECT user_id, day, symptom_severity, mood, energy, notes,
                hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
                step_count, step_count_source, sleep_duration, sleep_duration_source
            FROM daily_logs
            WHERE user_id = ?1 AND day >= ?2 AND day <= ?3 ORDER BY day
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, user.rawValue)
            // '0000-00-00' and '9999-99-99' sort before and after every valid day.
            try statement.bind(2, first?.description ?? "0000-00-00")
            try statement.bind(3, last?.description ?? "9999-99-99")
            var logs: [DailyLog] = []
            while try statement.step() {
                if let log = decodeDailyLog(statement, user: user) { logs.append(log) }
            }
            return logs
        }
    }

    private func decodeDailyLog(_ statement: Statement, user: UserID) -> DailyLog? {
        guard let day = statement.withBytes(1, { Day(utf8: $0) }) else { return nil }
        func source(_ column: Int32) -> Source {
            statement.withBytes(column) { $0.first == UInt8(ascii: "u") } ? .user : .health
        }
        var log = DailyLog(user: user, day: day)
        log.symptomSeverity = statement.optionalInt(2)
        log.mood = statement.optionalInt(3)
        log.energy = statement.optionalInt(4)
        log.notes = statement.optionalString(5)
        log.hrv = statement.optionalDouble(6).map { Sourced($0, source(7)) }
        log.restingHeartRate = statement.optionalDouble(8).map { Sourced($0, source(9)) }
        log.stepCount = statement.optionalInt(10).map { Sourced($0, source(11)) }
        log.sleepDuration = statement.optionalDouble(12).map { Sourced($0, source(13)) }
        return log
    }
}
