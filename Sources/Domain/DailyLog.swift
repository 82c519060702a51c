/// One user's day: what the person entered and what health sync filled in. There is exactly one
/// per (user, day).
public struct DailyLog: Sendable, Hashable {
    public var user: UserID
    public var day: Day
    public var symptomSeverity: Int?
    public var mood: Int?
    public var energy: Int?
    public var notes: String?
    /// Heart-rate variability (SDNN), milliseconds.
    public var hrv: Sourced<Double>?
    /// Resting heart rate, beats per minute.
    public var restingHeartRate: Sourced<Double>?
    public var stepCount: Sourced<Int>?
    /// Time asleep, seconds.
    public var sleepDuration: Sourced<Double>?

    public init(
        user: UserID, day: Day, symptomSeverity: Int? = nil, mood: Int? = nil, energy: Int? = nil,
        notes: String? = nil, hrv: Sourced<Double>? = nil, restingHeartRate: Sourced<Double>? = nil,
        stepCount: Sourced<Int>? = nil, sleepDuration: Sourced<Double>? = nil
    ) {
        self.user = user
        self.day = day
        self.symptomSeverity = symptomSeverity
        self.mood = mood
        self.energy = energy
        self.notes = notes
        self.hrv = hrv
        self.restingHeartRate = restingHeartRate
        self.stepCount = stepCount
        self.sleepDuration = sleepDuration
    }

    /// A field's value as a number, `nil` when empty.
    public func value(of field: Field) -> Double? {
        switch field {
        case .symptomSeverity: symptomSeverity.map(Double.init)
        case .mood: mood.map(Double.init)
        case .energy: energy.map(Double.init)
        case .hrv: hrv?.value
        case .restingHeartRate: restingHeartRate?.value
        case .stepCount: stepCount.map { Double($0.value) }
        case .sleepDuration: sleepDuration?.value
        }
    }

    /// Who wrote a metric field; `nil` when empty or for a user-only field.
    public func source(of field: Field) -> Source? {
        switch field {
        case .hrv: hrv?.source
        case .restingHeartRate: restingHeartRate?.source
        case .stepCount: stepCount?.source
        case .sleepDuration: sleepDuration?.source
        case .symptomSeverity, .mood, .energy: nil
        }
    }

    /// Whether the person entered anything for this day (a user-only field, notes, or a metric
    /// whose source is `user`).
    public var hasUserEntry: Bool {
        symptomSeverity != nil || mood != nil || energy != nil || notes != nil
            || Field.metrics.contains { source(of: $0) == .user }
    }
}

/// A change to one field: absent from the input (`unchanged`), an explicit `null` (`clear`), or a
/// new value (`set`). DESIGN §2 rule 4.
public enum Patch<Value: Sendable & Hashable>: Sendable, Hashable {
    case unchanged
    case clear
    case set(Value)

    public var isUnchanged: Bool {
        if case .unchanged = self { true } else { false }
    }

    public var newValue: Value? {
        if case .set(let value) = self { value } else { nil }
    }
}

/// What a person typed for a day. Every field it sets is stored with source `user` and wins over
/// any health value, now and later.
public struct UserEntry: Sendable, Hashable {
    public var user: UserID
    public var day: Day
    public var symptomSeverity: Patch<Int> = .unchanged
    public var mood: Patch<Int> = .unchanged
    public var energy: Patch<Int> = .unchanged
    public var notes: Patch<String> = .unchanged
    public var hrv: Patch<Double> = .unchanged
    public var restingHeartRate: Patch<Double> = .unchanged
    public var stepCount: Patch<Int> = .unchanged
    public var sleepDuration: Patch<Double> = .unchanged

    public init(user: UserID, day: Day) {
        self.user = user
        self.day = day
    }

    /// Checks every set value against DESIGN §2's bounds.
    public func validate() throws(DomainError) {
        func check(_ field: Field, _ value: Double?) throws(DomainError) {
            if let value { try field.validate(value) }
        }
        try check(.symptomSeverity, symptomSeverity.newValue.map(Double.init))
        try check(.mood, mood.newValue.map(Double.init))
        try check(.energy, energy.newValue.map(Double.init))
        try check(.hrv, hrv.newValue)
        try check(.restingHeartRate, restingHeartRate.newValue)
        try check(.stepCount, stepCount.newValue.map(Double.init))
        try check(.sleepDuration, sleepDuration.newValue)
        if let text = notes.newValue, let problem = Field.notesProblem(text) {
            throw .invalidValue(field: "notes", problem: problem)
        }
    }

    /// Whether the entry only sets fields: none of them is `.clear`.
    public var clearsNothing: Bool {
        func keeps<V>(_ patch: Patch<V>) -> Bool {
            if case .clear = patch { false } else { true }
        }
        return keeps(symptomSeverity) && keeps(mood) && keeps(energy) && keeps(notes) && keeps(hrv)
            && keeps(restingHeartRate) && keeps(stepCount) && keeps(sleepDuration)
    }
}

/// One day of health metrics from a sync (HealthKit, a wearable). A `nil` field means "no reading"
/// and changes nothing; a value fills an empty field or refreshes a `health` one, never a `user` one.
public struct HealthMetrics: Sendable, Hashable {
    public var user: UserID
    public var day: Day
    public var hrv: Double?
    public var restingHeartRate: Double?
    public var stepCount: Int?
    public var sleepDuration: Double?

    public init(
        user: UserID, day: Day, hrv: Double? = nil, restingHeartRate: Double? = nil, stepCount: Int? = nil,
        sleepDuration: Double? = nil
    ) {
        self.user = user
        self.day = day
        self.hrv = hrv
        self.restingHeartRate = restingHeartRate
        self.stepCount = stepCount
        self.sleepDuration = sleepDuration
    }

    public var isEmpty: Bool {
        hrv == nil && restingHeartRate == nil && stepCount == nil && sleepDuration == nil
    }

    /// Checks every value against DESIGN §2's bounds.
    public func validate() throws(DomainError) {
        if let hrv { try Field.hrv.validate(hrv) }
        if let restingHeartRate { try Field.restingHeartRate.validate(restingHeartRate) }
        if let stepCount { try Field.stepCount.validate(Double(stepCount)) }
        if let sleepDuration { try Field.sleepDuration.validate(sleepDuration) }
    }
}

/// Everything written to one user-day by a run of consecutive records, reduced to one write with
/// the meaning "apply the user's entry, then the health sync". Any sequence of entries and health
/// syncs for one day reduces to that form, so a batch can store a day with one upsert instead of
/// one per record, with the same result as applying the records one by one.
public struct DayWrite: Sendable, Hashable {
    public private(set) var entry: UserEntry
    public private(set) var health: HealthMetrics

    public init(_ entry: UserEntry) {
        self.entry = entry
        health = HealthMetrics(user: entry.user, day: entry.day)
    }

    public init(_ health: HealthMetrics) {
        entry = UserEntry(user: health.user, day: health.day)
        self.health = health
    }

    public var user: UserID { entry.user }
    public var day: Day { entry.day }

    /// Adds an entry that came after everything already in the write. A field the entry mentions
    /// takes the entry's value (or is cleared) whatever health said before it, so health's earlier
    /// reading of that field no longer matters.
    public mutating func merge(_ next: UserEntry) {
        precondition(next.user == user && next.day == day, "a DayWrite holds one user-day")
        func overlay<V>(_ current: inout Patch<V>, _ incoming: Patch<V>) {
            if !incoming.isUnchanged { current = incoming }
        }
        overlay(&entry.symptomSeverity, next.symptomSeverity)
        overlay(&entry.mood, next.mood)
        overlay(&entry.energy, next.energy)
        overlay(&entry.notes, next.notes)
        overlay(&entry.hrv, next.hrv)
        overlay(&entry.restingHeartRate, next.restingHeartRate)
        overlay(&entry.stepCount, next.stepCount)
        overlay(&entry.sleepDuration, next.sleepDuration)
        if !next.hrv.isUnchanged { health.hrv = nil }
        if !next.restingHeartRate.isUnchanged { health.restingHeartRate = nil }
        if !next.stepCount.isUnchanged { health.stepCount = nil }
        if !next.sleepDuration.isUnchanged { health.sleepDuration = nil }
    }

    /// DESIGN §2's merge rules: the row this write leaves on a day whose stored row is `stored`
    /// (`nil`: no row yet). The entry goes first: a field it mentions takes its value, or is cleared
    /// by an explicit `null`; one it does not mention is unchanged. Then the health sync: a reading
    /// fills an empty field and refreshes a `health` one, never a `user` one.
    ///
    /// The upserts insert `applied(to: nil)` as it is, and apply these same rules in SQL to a row
    /// already stored, so that concurrent writers cannot break them.
    public func applied(to stored: DailyLog?) -> DailyLog {
        var row = stored ?? DailyLog(user: user, day: day)
        func enter<V>(_ field: inout V?, _ patch: Patch<V>) {
            if !patch.isUnchanged { field = patch.newValue }
        }
        func enter<V>(_ field: inout Sourced<V>?, _ patch: Patch<V>, _ reading: V?) {
            if !patch.isUnchanged { field = patch.newValue.map { Sourced($0, .user) } }
            if let reading, field?.source != .user { field = Sourced(reading, .health) }
        }
        enter(&row.symptomSeverity, entry.symptomSeverity)
        enter(&row.mood, entry.mood)
        enter(&row.energy, entry.energy)
        enter(&row.notes, entry.notes)
        enter(&row.hrv, entry.hrv, health.hrv)
        enter(&row.restingHeartRate, entry.restingHeartRate, health.restingHeartRate)
        enter(&row.stepCount, entry.stepCount, health.stepCount)
        enter(&row.sleepDuration, entry.sleepDuration, health.sleepDuration)
        return row
    }

    /// Adds a health sync that came after everything already in the write: a later reading
    /// replaces an earlier one, exactly as a second sync refreshes a `health` value.
    public mutating func merge(_ next: HealthMetrics) {
        precondition(next.user == user && next.day == day, "a DayWrite holds one user-day")
        if let value = next.hrv { health.hrv = value }
        if let value = next.restingHeartRate { health.restingHeartRate = value }
        if let value = next.stepCount { health.stepCount = value }
        if let value = next.sleepDuration { health.sleepDuration = value }
    }
}

/// A set of the fields only a person writes, the notes among them: what a watch item of a known kind sets or
/// clears.
public struct PersonalFields: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let symptomSeverity = PersonalFields(rawValue: 1 << 0)
    public static let mood = PersonalFields(rawValue: 1 << 1)
    public static let energy = PersonalFields(rawValue: 1 << 2)
    public static let notes = PersonalFields(rawValue: 1 << 3)
}

extension UserEntry {
    /// The fields only a person writes that this entry sets or clears.
    public var personalFields: PersonalFields {
        var fields: PersonalFields = []
        if !symptomSeverity.isUnchanged { fields.insert(.symptomSeverity) }
        if !mood.isUnchanged { fields.insert(.mood) }
        if !energy.isUnchanged { fields.insert(.energy) }
        if !notes.isUnchanged { fields.insert(.notes) }
        return fields
    }

    /// Whether the entry sets or clears a metric (which a health sync may also write).
    public var changesMetrics: Bool {
        !hrv.isUnchanged || !restingHeartRate.isUnchanged || !stepCount.isUnchanged || !sleepDuration.isUnchanged
    }
}

extension DayWrite {
    /// Leaves `fields` as the stored row has them: the write then sets and clears only its other fields.
    public mutating func leaveUnchanged(_ fields: PersonalFields) {
        if fields.contains(.symptomSeverity) { entry.symptomSeverity = .unchanged }
        if fields.contains(.mood) { entry.mood = .unchanged }
        if fields.contains(.energy) { entry.energy = .unchanged }
        if fields.contains(.notes) { entry.notes = .unchanged }
    }
}
