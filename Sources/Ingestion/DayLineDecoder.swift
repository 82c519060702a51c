import Domain

/// The fast path of `RecordDecoder` for the lines that make up nearly all of an input, entries and
/// health syncs: it reads their members straight from the bytes (`JSONParser.scanFlatObject`)
/// instead of building a parsed object and looking each key up by string.
///
/// It answers only for a line it can decode completely and that `RecordDecoder`'s full path would
/// accept as the same record; anything else — an unknown or repeated key, a value out of bounds,
/// a shape it does not read — gives `nil`, and the full path then decodes the line and words its
/// rejection. So the fast path never decides what is wrong with a line, only that nothing is.
struct DayLineDecoder {
    private var kind: Kind?
    private var user: UserID?
    private var day: Day?
    private var seen: UInt16 = 0
    private var symptomSeverity = Patch<Double>.unchanged
    private var mood = Patch<Double>.unchanged
    private var energy = Patch<Double>.unchanged
    private var hrv = Patch<Double>.unchanged
    private var restingHeartRate = Patch<Double>.unchanged
    private var stepCount = Patch<Double>.unchanged
    private var sleepDuration = Patch<Double>.unchanged
    private var notes = Patch<String>.unchanged

    private enum Kind {
        case entry, health
    }

    /// The record on `bytes`, or `nil` when the full path must decide.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> InputRecord? {
        var line = DayLineDecoder()
        guard JSONParser().scanFlatObject(bytes, { key, value in line.take(key, value) }) else { return nil }
        return line.record()
    }

    /// The keys this path reads, each with its bit in `seen`: the record's own, then the fields
    /// (each spelt as its `Field.rawValue`, which a test checks).
    static let keys: [(name: StaticString, field: Field?)] = [
        ("type", nil), ("user", nil), ("day", nil), ("notes", nil),
        ("symptomSeverity", .symptomSeverity), ("mood", .mood), ("energy", .energy), ("hrv", .hrv),
        ("restingHeartRate", .restingHeartRate), ("stepCount", .stepCount), ("sleepDuration", .sleepDuration),
    ]

    private mutating func take(_ key: UnsafeBufferPointer<UInt8>, _ value: FlatJSONValue) -> Bool {
        guard let index = DayLineDecoder.keys.firstIndex(where: { DayLineDecoder.equal(key, $0.name) }) else {
            return false
        }
        let bit: UInt16 = 1 << index
        guard seen & bit == 0 else { return false }
        seen |= bit
        switch (index, value) {
        case (0, .string(let text)):
            if DayLineDecoder.equal(text, "entry") {
                kind = .entry
            } else if DayLineDecoder.equal(text, "health") {
                kind = .health
            } else {
                return false
            }
        case (1, .string(let text)):
            user = UserID(utf8: text)
            return user != nil
        case (2, .string(let text)):
            day = Day(utf8: text)
            return day != nil
        case (3, .null):
            notes = .clear
        case (3, .string(let text)):
            let string = String(decoding: text, as: UTF8.self)
            guard string.unicodeScalars.count <= Field.notesLimit else { return false }
            notes = .set(string)
        case (4..., .null):
            set(DayLineDecoder.keys[index].field!, .clear)
        case (4..., .number(let number)):
            let field = DayLineDecoder.keys[index].field!
            guard (try? field.validate(number)) != nil else { return false }
            set(field, .set(number))
        default:
            return false
        }
        return true
    }

    private func record() -> InputRecord? {
        guard let kind, let user, let day else { return nil }
        switch kind {
        case .entry:
            var entry = UserEntry(user: user, day: day)
            entry.symptomSeverity = DayLineDecoder.integer(symptomSeverity)
            entry.mood = DayLineDecoder.integer(mood)
            entry.energy = DayLineDecoder.integer(energy)
            entry.hrv = hrv
            entry.restingHeartRate = restingHeartRate
            entry.stepCount = DayLineDecoder.integer(stepCount)
            entry.sleepDuration = sleepDuration
            entry.notes = notes
            // "No field given" is the full path's to say: `seen` then holds only type, user and day.
            return seen > 0b111 ? .entry(entry) : nil
        case .health:
            // A user-only field in a health record is the full path's to reject.
            guard notes.isUnchanged, symptomSeverity.isUnchanged, mood.isUnchanged, energy.isUnchanged else {
                return nil
            }
            // A null reading means "no reading", as in the full path.
            var metrics = HealthMetrics(user: user, day: day)
            metrics.hrv = hrv.newValue
            metrics.restingHeartRate = restingHeartRate.newValue
            metrics.stepCount = stepCount.newValue.map { Int($0) }
            metrics.sleepDuration = sleepDuration.newValue
            return metrics.isEmpty ? nil : .health(metrics)
        }
    }

    private mutating func set(_ field: Field, _ patch: Patch<Double>) {
        switch field {
        case .symptomSeverity: symptomSeverity = patch
        case .mood: mood = patch
        case .energy: energy = patch
        case .hrv: hrv = patch
        case .restingHeartRate: restingHeartRate = patch
        case .stepCount: stepCount = patch
        case .sleepDuration: sleepDuration = patch
        }
    }

    private static func integer(_ patch: Patch<Double>) -> Patch<Int> {
        switch patch {
        case .unchanged: .unchanged
        case .clear: .clear
        case .set(let number): .set(Int(number))
        }
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        bytes.count == name.utf8CodeUnitCount
            && bytes.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
}
