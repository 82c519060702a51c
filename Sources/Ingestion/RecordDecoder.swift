public import Domain
public import Foundation

/// Turns one parsed JSON Lines object into a validated `InputRecord` (DESIGN §7).
///
/// Every key is checked: an unknown key is an error rather than ignored, because a misspelt field
/// (`symptom_severity`) would otherwise be dropped without anyone noticing.
public struct RecordDecoder: Sendable {
    /// When a watch line gives no `enqueuedAt`.
    public var defaultEnqueuedAt: Date

    public init(defaultEnqueuedAt: Date) {
        self.defaultEnqueuedAt = defaultEnqueuedAt
    }

    public static let recordTypes = ["user", "settings", "entry", "health", "watch"]

    /// Decodes one line's bytes. Entries and health syncs of the usual shape take a fast path
    /// (`DayLineDecoder`) that gives the same record; every other line, and every rejection, comes
    /// from the full parse below.
    public func decode(line bytes: UnsafeBufferPointer<UInt8>) throws(FieldError) -> InputRecord {
        if let record = DayLineDecoder.decode(bytes) { return record }
        let value: JSONValue
        let payloadRange: Range<Int>?
        do {
            (value, payloadRange) = try JSONParser().parse(bytes, locating: "payload")
        } catch {
            throw FieldError("json", error.description)
        }
        guard case .object(let object) = value else {
            throw FieldError("json", "expected one object per line, got \(value.typeName)")
        }
        let payloadText = payloadRange.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
        return try decode(object, payloadText: payloadText)
    }

    /// Decodes one parsed object. `payloadText` is a watch payload as the line wrote it, stored in
    /// place of the parsed payload's text so that it is kept byte for byte (a number such as
    /// 9007199254740993 does not survive a Double).
    public func decode(_ object: JSONObject, payloadText: String? = nil) throws(FieldError) -> InputRecord {
        guard let typeValue = object["type"] else {
            throw FieldError("type", "missing; expected one of \(RecordDecoder.recordTypes.joined(separator: ", "))")
        }
        guard case .string(let type) = typeValue else {
            throw FieldError("type", "expected a string, got \(typeValue.typeName)")
        }
        let user = try RecordDecoder.userID(object["user"], field: "user")
        switch type {
        case "user": return .user(try decodeUser(object, user))
        case "settings": return .settings(try decodeSettings(object, user))
        case "entry": return .entry(try decodeEntry(object, user))
        case "health": return .health(try decodeHealth(object, user))
        case "watch": return .watch(try decodeWatch(object, user, payloadText: payloadText))
        default:
            throw FieldError(
                "type", "unknown record type; expected one of \(RecordDecoder.recordTypes.joined(separator: ", "))")
        }
    }

    // MARK: Record types

    private func decodeUser(_ object: JSONObject, _ id: UserID) throws(FieldError) -> UserUpdate {
        try RecordDecoder.allowOnly(Keys.user, in: object, recordType: "user")
        var update = UserUpdate(id: id)
        switch object["timeZone"] {
        case nil, .null?:
            break
        case .string(let name)?:
            guard let zone = TimeZone.iana(name) else {
                throw FieldError("timeZone", "not an IANA time zone name such as Europe/Berlin or America/New_York")
            }
            update.timeZone = zone
        case let other?:
            throw FieldError("timeZone", "expected a string, got \(other.typeName)")
        }
        return update
    }

    private func decodeSettings(_ object: JSONObject, _ user: UserID) throws(FieldError) -> SettingsUpdate {
        try RecordDecoder.allowOnly(Keys.settings, in: object, recordType: "settings")
        var update = SettingsUpdate(user: user)
        for key in SettingKey.allCases {
            guard let raw = object[key.rawValue] else { continue }
            let value: SettingValue?
            switch raw {
            case .null: value = nil
            case .bool(let flag): value = .bool(flag)
            case .number(let number) where number.rounded() == number && abs(number) < 1e9:
                value = .integer(Int(number))
            case .number: throw FieldError(key.rawValue, "must be a whole number")
            default:
                let expected = key == .reminderHour ? "a number" : "true or false"
                throw FieldError(key.rawValue, "expected \(expected) or null, got \(raw.typeName)")
            }
            if let value {
                do { try key.validate(value) } catch { throw FieldError(key.rawValue, RecordDecoder.problem(error)) }
            }
            update.changes[key] = .some(value)
        }
        guard !update.changes.isEmpty else {
            throw FieldError(
                "settings",
                "no setting given; expected one of \(SettingKey.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return update
    }

    private func decodeEntry(_ object: JSONObject, _ user: UserID) throws(FieldError) -> UserEntry {
        try RecordDecoder.allowOnly(Keys.entry, in: object, recordType: "entry")
        var entry = UserEntry(user: user, day: try RecordDecoder.day(object["day"], field: "day"))
        try RecordDecoder.decodeUserFields(object, into: &entry, prefix: "")
        return entry
    }

    private func decodeHealth(_ object: JSONObject, _ user: UserID) throws(FieldError) -> HealthMetrics {
        for key in object.keys where !Keys.health.contains(key) && Keys.userOnly.contains(key) {
            throw FieldError(key, "a health record cannot set a field only the user writes")
        }
        try RecordDecoder.allowOnly(Keys.health, in: object, recordType: "health")
        var metrics = HealthMetrics(user: user, day: try RecordDecoder.day(object["day"], field: "day"))
        // A null reading means "no reading": health never clears a value.
        metrics.hrv = try RecordDecoder.number(object["hrv"], .hrv, prefix: "").newValue
        metrics.restingHeartRate = try RecordDecoder.number(object["restingHeartRate"], .restingHeartRate, prefix: "")
            .newValue
        metrics.stepCount = try RecordDecoder.integer(object["stepCount"], .stepCount, prefix: "").newValue
        metrics.sleepDuration = try RecordDecoder.number(object["sleepDuration"], .sleepDuration, prefix: "").newValue
        guard !metrics.isEmpty else {
            throw FieldError(
                "health", "no reading given; expected one of \(Field.metrics.map(\.rawValue).joined(separator: ", "))")
        }
        return metrics
    }

    private func decodeWatch(
        _ object: JSONObject, _ user: UserID, payloadText: String?
    ) throws(FieldError) -> WatchSubmission {
        try RecordDecoder.allowOnly(Keys.watch, in: object, recordType: "watch")
        guard let kindValue = object["kind"] else { throw FieldError("kind", "missing") }
        guard case .string(let kind) = kindValue, !kind.isEmpty, kind.utf8.count <= 64 else {
            throw FieldError("kind", "expected a non-empty string of at most 64 bytes")
        }
        if let problem = Field.textProblem(kind) { throw FieldError("kind", problem) }
        guard let payloadValue = object["payload"] else { throw FieldError("payload", "missing") }
        guard case .object(let payload) = payloadValue else {
            throw FieldError("payload", "expected an object, got \(payloadValue.typeName)")
        }
        // A known kind's payload is checked now, so a line that could never apply is reported at
        // once; an unknown kind is queued as it is, for a newer version to apply.
        if let known = WatchKind(rawValue: kind) {
            _ = try WatchPayload.entry(kind: known, user: user, payload: payload)
        }
        var enqueuedAt = defaultEnqueuedAt
        switch object["enqueuedAt"] {
        case nil, .null?: break
        case .string(let text)?:
            guard let date = ISO8601Instant.date(from: text) else {
                throw FieldError("enqueuedAt", "expected an ISO 8601 time such as 2026-03-01T08:00:00Z")
            }
            enqueuedAt = date
        case let other?:
            throw FieldError("enqueuedAt", "expected a string, got \(other.typeName)")
        }
        return WatchSubmission(user: user, kind: kind, payload: payloadText ?? payload.jsonText, enqueuedAt: enqueuedAt)
    }

    // MARK: Fields

    /// Reads the user-entered fields present in `object` into `entry`; `prefix` names the enclosing
    /// object in messages (`payload.`).
    static func decodeUserFields(_ object: JSONObject, into entry: inout UserEntry, prefix: String) throws(FieldError) {
        entry.symptomSeverity = try integer(object["symptomSeverity"], .symptomSeverity, prefix: prefix)
        entry.mood = try integer(object["mood"], .mood, prefix: prefix)
        entry.energy = try integer(object["energy"], .energy, prefix: prefix)
        entry.hrv = try number(object["hrv"], .hrv, prefix: prefix)
        entry.restingHeartRate = try number(object["restingHeartRate"], .restingHeartRate, prefix: prefix)
        entry.stepCount = try integer(object["stepCount"], .stepCount, prefix: prefix)
        entry.sleepDuration = try number(object["sleepDuration"], .sleepDuration, prefix: prefix)
        switch object["notes"] {
        case nil: break
        case .null?: entry.notes = .clear
        case .string(let text)?:
            if let problem = Field.notesProblem(text) { throw FieldError(prefix + "notes", problem) }
            entry.notes = .set(text)
        case let other?:
            throw FieldError(prefix + "notes", "expected a string or null, got \(other.typeName)")
        }
        let fields = [
            entry.symptomSeverity.isUnchanged, entry.mood.isUnchanged, entry.energy.isUnchanged,
            entry.hrv.isUnchanged, entry.restingHeartRate.isUnchanged, entry.stepCount.isUnchanged,
            entry.sleepDuration.isUnchanged, entry.notes.isUnchanged,
        ]
        guard fields.contains(false) else {
            let names = (Field.allCases.map(\.rawValue) + ["notes"]).joined(separator: ", ")
            throw FieldError(
                prefix.isEmpty ? "entry" : String(prefix.dropLast()), "no field given; expected one of \(names)")
        }
    }

    static func number(_ value: JSONValue?, _ field: Field, prefix: String) throws(FieldError) -> Patch<Double> {
        switch value {
        case nil: return .unchanged
        case .null?: return .clear
        case .number(let number)?:
            do { try field.validate(number) } catch { throw FieldError(prefix + field.rawValue, problem(error)) }
            return .set(number)
        case let other?:
            throw FieldError(prefix + field.rawValue, "expected a number or null, got \(other.typeName)")
        }
    }

    static func integer(_ value: JSONValue?, _ field: Field, prefix: String) throws(FieldError) -> Patch<Int> {
        switch try number(value, field, prefix: prefix) {
        case .unchanged: .unchanged
        case .clear: .clear
        case .set(let number): .set(Int(number))
        }
    }

    static func problem(_ error: DomainError) -> String {
        switch error {
        case .invalidValue(_, let problem): problem
        }
    }

    static func userID(_ value: JSONValue?, field: String) throws(FieldError) -> UserID {
        guard let value else { throw FieldError(field, "missing") }
        guard case .string(let text) = value else {
            throw FieldError(field, "expected a string, got \(value.typeName)")
        }
        guard let id = UserID(text) else {
            throw FieldError(field, "must be 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
        }
        return id
    }

    static func day(_ value: JSONValue?, field: String) throws(FieldError) -> Day {
        guard let value else { throw FieldError(field, "missing") }
        guard case .string(let text) = value else {
            throw FieldError(field, "expected a date string YYYY-MM-DD, got \(value.typeName)")
        }
        guard let day = Day(text) else { throw FieldError(field, "not a calendar date in the form YYYY-MM-DD") }
        return day
    }

    /// The keys each record type accepts, built once.
    enum Keys {
        static let user: Set<String> = ["type", "user", "timeZone"]
        static let settings = Set(["type", "user"] + SettingKey.allCases.map(\.rawValue))
        static let entry = Set(["type", "user", "day", "notes"] + Field.allCases.map(\.rawValue))
        static let health = Set(["type", "user", "day"] + Field.metrics.map(\.rawValue))
        static let userOnly = Set(Field.userOnly.map(\.rawValue) + ["notes"])
        static let watch: Set<String> = ["type", "user", "kind", "payload", "enqueuedAt"]
        static let symptomLog: Set<String> = ["day", "symptomSeverity", "notes"]
        static let healthCheckIn: Set<String> = ["day", "mood", "energy"]
    }

    static func allowOnly(_ keys: Set<String>, in object: JSONObject, recordType: String) throws(FieldError) {
        for (index, key) in object.keys.enumerated() where !keys.contains(key) {
            throw FieldError.unknownKey(key, position: index + 1, "not a field of a \(recordType) record")
        }
    }
}

/// The payloads of the watch-queue kinds this version knows.
public enum WatchPayload {
    /// The user entry a known kind's payload stands for. `symptomLog` carries `day`,
    /// `symptomSeverity` and optionally `notes`; `healthCheckIn` carries `day`, `mood` and `energy`.
    public static func entry(kind: WatchKind, user: UserID, payload: JSONObject) throws(FieldError) -> UserEntry {
        let allowed =
            switch kind {
            case .symptomLog: RecordDecoder.Keys.symptomLog
            case .healthCheckIn: RecordDecoder.Keys.healthCheckIn
            }
        for (index, key) in payload.keys.enumerated() where !allowed.contains(key) {
            throw FieldError.unknownKey(
                key, position: index + 1, prefix: "payload.", "not a field of a \(kind.rawValue) item")
        }
        var entry = UserEntry(user: user, day: try RecordDecoder.day(payload["day"], field: "payload.day"))
        try RecordDecoder.decodeUserFields(payload, into: &entry, prefix: "payload.")
        return entry
    }

    /// Parses a stored payload's JSON text and decodes it.
    public static func entry(for item: WatchItem) throws(FieldError) -> UserEntry? {
        guard let kind = WatchKind(rawValue: item.kind) else { return nil }
        let value: JSONValue
        do { value = try JSONParser().parse(item.payload) } catch { throw FieldError("payload", error.description) }
        guard case .object(let payload) = value else {
            throw FieldError("payload", "expected an object, got \(value.typeName)")
        }
        return try entry(kind: kind, user: item.user, payload: payload)
    }
}
