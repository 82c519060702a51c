public import Domain

/// The merge rules of DESIGN §2, in SQL so that concurrent writers cannot break them: whichever
/// statement commits last, a `user` value is never replaced by a `health` one. In an `ON CONFLICT
/// … DO UPDATE SET` every bare column name is the stored row's value before the update, and
/// `excluded.x` is the incoming one (https://www.sqlite.org/lang_upsert.html).
extension Store {
    /// What a person typed. Parameters: ?1 user, ?2 day, ?3 updated_at, then for each field its
    /// value and a flag saying whether the input mentioned it (absent = unchanged, null = clear).
    static let upsertUserEntry = """
        INSERT INTO daily_logs (
            user_id, day, updated_at, symptom_severity, mood, energy, notes,
            hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
            step_count, step_count_source, sleep_duration, sleep_duration_source)
        VALUES (
            ?1, ?2, ?3, ?4, ?6, ?8, ?10,
            ?12, CASE WHEN ?12 IS NULL THEN NULL ELSE 'user' END,
            ?14, CASE WHEN ?14 IS NULL THEN NULL ELSE 'user' END,
            ?16, CASE WHEN ?16 IS NULL THEN NULL ELSE 'user' END,
            ?18, CASE WHEN ?18 IS NULL THEN NULL ELSE 'user' END)
        ON CONFLICT (user_id, day) DO UPDATE SET
            updated_at = excluded.updated_at,
            symptom_severity = CASE WHEN ?5 THEN excluded.symptom_severity ELSE symptom_severity END,
            mood = CASE WHEN ?7 THEN excluded.mood ELSE mood END,
            energy = CASE WHEN ?9 THEN excluded.energy ELSE energy END,
            notes = CASE WHEN ?11 THEN excluded.notes ELSE notes END,
            hrv = CASE WHEN ?13 THEN excluded.hrv ELSE hrv END,
            hrv_source = CASE WHEN ?13 THEN excluded.hrv_source ELSE hrv_source END,
            resting_heart_rate = CASE WHEN ?15 THEN excluded.resting_heart_rate ELSE resting_heart_rate END,
            resting_heart_rate_source = CASE WHEN ?15 THEN excluded.resting_heart_rate_source
                ELSE resting_heart_rate_source END,
            step_count = CASE WHEN ?17 THEN excluded.step_count ELSE step_count END,
            step_count_source = CASE WHEN ?17 THEN excluded.step_count_source ELSE step_count_source END,
            sleep_duration = CASE WHEN ?19 THEN excluded.sleep_duration ELSE sleep_duration END,
            sleep_duration_source = CASE WHEN ?19 THEN excluded.sleep_duration_source ELSE sleep_duration_source END
        """

    /// A health sync. A reading fills an empty field or refreshes a `health` one; a field whose
    /// source is `user` keeps its value and source; a missing reading (NULL) changes nothing.
    static let upsertHealthMetrics = """
        INSERT INTO daily_logs (
            user_id, day, updated_at,
            hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
            step_count, step_count_source, sleep_duration, sleep_duration_source)
        VALUES (
            ?1, ?2, ?3,
            ?4, CASE WHEN ?4 IS NULL THEN NULL ELSE 'health' END,
            ?5, CASE WHEN ?5 IS NULL THEN NULL ELSE 'health' END,
            ?6, CASE WHEN ?6 IS NULL THEN NULL ELSE 'health' END,
            ?7, CASE WHEN ?7 IS NULL THEN NULL ELSE 'health' END)
        ON CONFLICT (user_id, day) DO UPDATE SET
            updated_at = excluded.updated_at,
            hrv = CASE WHEN excluded.hrv IS NULL OR hrv_source IS 'user' THEN hrv ELSE excluded.hrv END,
            hrv_source = CASE WHEN excluded.hrv IS NULL OR hrv_source IS 'user' THEN hrv_source ELSE 'health' END,
            resting_heart_rate = CASE WHEN excluded.resting_heart_rate IS NULL OR resting_heart_rate_source IS 'user'
                THEN resting_heart_rate ELSE excluded.resting_heart_rate END,
            resting_heart_rate_source = CASE
                WHEN excluded.resting_heart_rate IS NULL OR resting_heart_rate_source IS 'user'
                THEN resting_heart_rate_source ELSE 'health' END,
            step_count = CASE WHEN excluded.step_count IS NULL OR step_count_source IS 'user'
                THEN step_count ELSE excluded.step_count END,
            step_count_source = CASE WHEN excluded.step_count IS NULL OR step_count_source IS 'user'
                THEN step_count_source ELSE 'health' END,
            sleep_duration = CASE WHEN excluded.sleep_duration IS NULL OR sleep_duration_source IS 'user'
                THEN sleep_duration ELSE excluded.sleep_duration END,
            sleep_duration_source = CASE WHEN excluded.sleep_duration IS NULL OR sleep_duration_source IS 'user'
                THEN sleep_duration_source ELSE 'health' END
        """

    static let selectColumns = """
        SELECT user_id, day, symptom_severity, mood, energy, notes,
            hrv, hrv_source, resting_heart_rate, resting_heart_rate_source,
            step_count, step_count_source, sleep_duration, sleep_duration_source
        FROM daily_logs
        """

    /// Stores what a person typed for a day, creating the user (UTC) if new. Runs in its own
    /// transaction; the values are assumed valid (`UserEntry.validate()`), and the database's CHECK
    /// constraints reject any that are not.
    public func write(_ entry: UserEntry) throws(StorageError) {
        try write { () throws(StorageError) in try apply(entry) }
    }

    /// Merges one day of health metrics, creating the user (UTC) if new. Runs in its own transaction.
    public func write(_ metrics: HealthMetrics) throws(StorageError) {
        try write { () throws(StorageError) in try apply(metrics) }
    }

    func apply(_ entry: UserEntry) throws(StorageError) {
        try ensureUser(entry.user)
        try connection.withStatement(Store.upsertUserEntry) { (statement) throws(StorageError) in
            try bind(entry, to: statement)
            try statement.run()
        }
    }

    private func bind(_ entry: UserEntry, to statement: Statement) throws(StorageError) {
        try statement.bind(1, entry.user.rawValue)
        try statement.bind(2, entry.day.description)
        try statement.bind(3, nowMilliseconds)
        func bind<V>(_ index: Int32, _ patch: Patch<V>, _ bindValue: (Int32, V?) throws(StorageError) -> Void)
            throws(StorageError)
        {
            try bindValue(index, patch.newValue)
            try statement.bind(index + 1, !patch.isUnchanged)
        }
        try bind(4, entry.symptomSeverity) { (index, value) throws(StorageError) in try statement.bind(index, value) }
        try bind(6, entry.mood) { (index, value) throws(StorageError) in try statement.bind(index, value) }
        try bind(8, entry.energy) { (index, value) throws(StorageError) in try statement.bind(index, value) }
        try bind(10, entry.notes) { (index, value) throws(StorageError) in try statement.bind(index, value) }
        try bind(12, entry.hrv) { (index, value) throws(StorageError) in try statement.bind(index, value) }
        try bind(14, entry.restingHeartRate) { (index, value) throws(StorageError) in try statement.bind(index, value) }
        try bind(16, entry.stepCount) { (index, value) throws(StorageError) in try statement.bind(index, value) }
        try bind(18, entry.sleepDuration) { (index, value) throws(StorageError) in try statement.bind(index, value) }
    }

    func apply(_ metrics: HealthMetrics) throws(StorageError) {
        guard !metrics.isEmpty else { return }
        try ensureUser(metrics.user)
        try connection.withStatement(Store.upsertHealthMetrics) { (statement) throws(StorageError) in
            try statement.bind(1, metrics.user.rawValue)
            try statement.bind(2, metrics.day.description)
            try statement.bind(3, nowMilliseconds)
            try statement.bind(4, metrics.hrv)
            try statement.bind(5, metrics.restingHeartRate)
            try statement.bind(6, metrics.stepCount)
            try statement.bind(7, metrics.sleepDuration)
            try statement.run()
        }
    }

    /// The user's log for `day`, or `nil` when nothing was stored for it.
    public func dailyLog(user: UserID, day: Day) throws(StorageError) -> DailyLog? {
        try connection.withStatement(Store.selectColumns + " WHERE user_id = ?1 AND day = ?2") {
            (statement) throws(StorageError) in
            try statement.bind(1, user.rawValue)
            try statement.bind(2, day.description)
            return try statement.step() ? decodeDailyLog(statement, user: user) : nil
        }
    }

    /// The user's logs from `first` through `last` (either open when `nil`), in day order.
    public func dailyLogs(user: UserID, from first: Day? = nil, through last: Day? = nil) throws(StorageError)
        -> [DailyLog]
    {
        try connection.withStatement(
            Store.selectColumns + " WHERE user_id = ?1 AND day >= ?2 AND day <= ?3 ORDER BY day"
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
        guard let day = statement.withBytes(1, { Day(String(decoding: $0, as: UTF8.self)) }) else { return nil }
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
