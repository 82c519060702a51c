import Domain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads each `Record` the scanner reports into the daily aggregates, and counts what it used and
/// what it skipped, by reason.
///
/// Attributes may come in any order, and the export shapes of every iOS version are accepted: dates
/// as `2019-01-05 08:12:00 +0100` or (iOS 8) `20190105081200+0100`, the source as `sourceName` or
/// (iOS 8) `source`, and `HKWasUserEntered` as a `<MetadataEntry key="HKWasUserEntered" value="1"/>`
/// child or (iOS 8) a `HKWasUserEntered="1"` attribute.
struct ExportRecordDecoder: ExportEventHandler {
    private(set) var aggregator: DailyAggregator
    private(set) var recordsRead = 0
    private(set) var used: [AppleHealthMeasure: Int] = [:]
    private(set) var enteredByPerson = 0
    private var skippedOtherwise: [AppleHealthSkipReason: Int] = [:]
    private var notImportedCount = 0
    private var notImported: [String: Int] = [:]

    /// The record whose start tag was read and whose end (and metadata) is still to come.
    private var pending: PendingRecord?

    /// Step sources, numbered in order of first appearance.
    private var sourceNumbers: [[UInt8]: Int32] = [:]
    private var sourceClasses: [DeviceClass] = []
    /// The raw `sourceName` bytes of the last step record, and its number.
    private var lastSource: [UInt8] = []
    private var lastSourceNumber: Int32 = -1

    /// Records of types not imported come grouped by type; counting runs avoids a dictionary lookup
    /// per record.
    private var runType: [UInt8] = []
    private var runLength = 0

    /// Longest interval a record may span; longer ones are damaged data.
    static let longestInterval: Int64 = 31 * 86_400

    init(timeZone: TimeZone) {
        aggregator = DailyAggregator(timeZone: timeZone)
    }

    private struct PendingRecord {
        enum Kind {
            case hrv(Double)
            case restingHeartRate(Double)
            case steps(Double, source: Int32)
            case asleep
            case inBed
        }
        var kind: Kind
        var start: Int64
        var end: Int64
        var userEntered: Bool
    }

    private enum RecordType {
        case hrv, restingHeartRate, steps, sleep

        var measure: AppleHealthMeasure {
            switch self {
            case .hrv: .hrv
            case .restingHeartRate: .restingHeartRate
            case .steps: .stepCount
            case .sleep: .sleepDuration
            }
        }
    }

    /// The types read, as `HKQuantityTypeIdentifier…`/`HKCategoryTypeIdentifier…` names.
    private static func recordType(_ name: UnsafeBufferPointer<UInt8>) -> RecordType? {
        if equal(name, "HKQuantityTypeIdentifierStepCount") { return .steps }
        if equal(name, "HKCategoryTypeIdentifierSleepAnalysis") { return .sleep }
        if equal(name, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN") { return .hrv }
        if equal(name, "HKQuantityTypeIdentifierRestingHeartRate") { return .restingHeartRate }
        return nil
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount
            && (bytes.isEmpty || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0)
    }

    mutating func beginRecord(_ attributes: TagAttributes) {
        recordsRead += 1
        pending = nil
        var type = -1
        var unit = -1
        var value = -1
        var source = -1
        var device = -1
        var start = -1
        var end = -1
        var userEntered = false
        for index in 0..<attributes.count {
            let name = attributes.name(index)
            switch name.count {
            case 4:
                if Self.equal(name, "type") { type = index } else if Self.equal(name, "unit") { unit = index }
            case 5:
                if Self.equal(name, "value") { value = index }
            case 6:
                if Self.equal(name, "device") { device = index } else if Self.equal(name, "source") { source = index }
            case 7:
                if Self.equal(name, "endDate") { end = index }
            case 9:
                if Self.equal(name, "startDate") { start = index }
            case 10:
                if Self.equal(name, "sourceName") { source = index }
            case 16:
                if Self.equal(name, "HKWasUserEntered") { userEntered = attributes.withValue(index, Self.isTrue) }
            default:
                break
            }
        }
        guard type >= 0 else { return skip(.missingType) }
        guard let recordType = attributes.withValue(type, Self.recordType) else {
            return countNotImported(attributes, type)
        }
        let measure = recordType.measure
        guard start >= 0, end >= 0, let from = attributes.withValue(start, ExportTimestamp.parse),
            let to = attributes.withValue(end, ExportTimestamp.parse)
        else { return skip(.unparsableDate) }
        guard to >= from, to - from <= Self.longestInterval else { return skip(.invalidInterval) }
        guard value >= 0 else { return skip(.unparsableValue(measure)) }

        let kind: PendingRecord.Kind
        switch recordType {
        case .sleep:
            switch attributes.withValue(value, Self.sleepValue) {
            case .asleep?:
                guard to - from <= 86_400 else { return skip(.outOfBounds(.sleepDuration)) }
                kind = .asleep
            case .inBed?:
                guard to - from <= 86_400 else { return skip(.outOfBounds(.timeInBed)) }
                kind = .inBed
            case .awake?:
                return skip(.awake)
            case nil:
                return skip(.unparsableValue(.sleepDuration))
            }
        case .hrv, .restingHeartRate, .steps:
            guard unit >= 0, let scale = attributes.withValue(unit, { Self.scale(recordType, unit: $0) }) else {
                return skip(.unknownUnit(measure))
            }
            guard let number = attributes.withValue(value, ExportNumber.parse) else {
                return skip(.unparsableValue(measure))
            }
            let amount = number * scale
            switch recordType {
            case .hrv:
                guard Field.hrv.bounds.contains(amount) else { return skip(.outOfBounds(measure)) }
                kind = .hrv(amount)
            case .restingHeartRate:
                guard Field.restingHeartRate.bounds.contains(amount) else { return skip(.outOfBounds(measure)) }
                kind = .restingHeartRate(amount)
            default:
                guard Field.stepCount.bounds.contains(amount) else { return skip(.outOfBounds(measure)) }
                kind = .steps(amount, source: sourceNumber(attributes, source: source, device: device))
            }
        }
        pending = PendingRecord(kind: kind, start: from, end: to, userEntered: userEntered)
    }

    mutating func metadataEntry(_ attributes: TagAttributes) {
        guard pending != nil, attributes.count >= 2 else { return }
        var key = -1
        var value = -1
        for index in 0..<attributes.count {
            let name = attributes.name(index)
            if Self.equal(name, "key") { key = index } else if Self.equal(name, "value") { value = index }
        }
        guard key >= 0, value >= 0,
            attributes.withValue(key, { Self.equal($0, "HKWasUserEntered") }),
            attributes.withValue(value, Self.isTrue)
        else { return }
        pending?.userEntered = true
    }

    mutating func endRecord() {
        guard let record = pending else { return }
        pending = nil
        let measure: AppleHealthMeasure
        switch record.kind {
        case .hrv(let value):
            measure = .hrv
            aggregator.addHRV(value, start: record.start, end: record.end, userEntered: record.userEntered)
        case .restingHeartRate(let value):
            measure = .restingHeartRate
            aggregator.addRestingHeartRate(value, start: record.start, end: record.end, userEntered: record.userEntered)
        case .steps(let count, let source):
            measure = .stepCount
            aggregator.addSteps(
                count, start: record.start, end: record.end, source: source, userEntered: record.userEntered)
        case .asleep:
            measure = .sleepDuration
            aggregator.addSleep(start: record.start, end: record.end, userEntered: record.userEntered)
        case .inBed:
            measure = .timeInBed
            aggregator.addInBed(start: record.start, end: record.end)
        }
        used[measure, default: 0] += 1
        if record.userEntered { enteredByPerson += 1 }
    }

    /// Counts of records whose type is not imported, by type.
    mutating func typesNotImported() -> [String: Int] {
        flushRun()
        return notImported
    }

    /// Step sources ranked for `StepCounter`: by device class, then by first appearance.
    func sourceRanks() -> [Int] {
        let order = sourceClasses.indices.sorted { (sourceClasses[$0], $0) < (sourceClasses[$1], $1) }
        var ranks = [Int](repeating: 0, count: sourceClasses.count)
        for (rank, source) in order.enumerated() { ranks[source] = rank }
        return ranks
    }

    private mutating func skip(_ reason: AppleHealthSkipReason) {
        skippedOtherwise[reason, default: 0] += 1
    }

    /// Records not used, by reason.
    var skipped: [AppleHealthSkipReason: Int] {
        var all = skippedOtherwise
        if notImportedCount > 0 { all[.typeNotImported] = notImportedCount }
        return all
    }

    private mutating func countNotImported(_ attributes: TagAttributes, _ type: Int) {
        // Most records of an export land here: a plain counter, not a dictionary update.
        notImportedCount += 1
        let matchesRun = attributes.withValue(type) { name in
            name.count == runType.count
                && runType.withUnsafeBufferPointer { run in
                    name.isEmpty || memcmp(run.baseAddress!, name.baseAddress!, name.count) == 0
                }
        }
        if matchesRun, runLength > 0 {
            runLength += 1
        } else {
            flushRun()
            runType = attributes.value(type)
            runLength = 1
        }
    }

    private mutating func flushRun() {
        if runLength > 0 { notImported[String(decoding: runType, as: UTF8.self), default: 0] += runLength }
        runLength = 0
    }

    private mutating func sourceNumber(_ attributes: TagAttributes, source: Int, device: Int) -> Int32 {
        // Same raw bytes, same source: compared before decoding, which a name with `&#x2019;` needs.
        let raw = source >= 0 ? attributes.rawValue(source) : UnsafeBufferPointer(start: nil, count: 0)
        if lastSourceNumber >= 0, raw.elementsEqual(lastSource) { return lastSourceNumber }
        let name = source >= 0 ? attributes.value(source) : []
        let number: Int32
        if let known = sourceNumbers[name] {
            number = known
        } else {
            number = Int32(sourceClasses.count)
            sourceNumbers[name] = number
            sourceClasses.append(
                DeviceClass.classify(sourceName: name, device: device >= 0 ? attributes.value(device) : nil))
        }
        lastSource = Array(raw)
        lastSourceNumber = number
        return number
    }

    /// The factor from the record's unit to the field's (ms for HRV, beats/min for resting heart rate,
    /// steps); `nil` for a unit that cannot be converted.
    private static func scale(_ type: RecordType, unit: UnsafeBufferPointer<UInt8>) -> Double? {
        switch type {
        case .hrv:
            if equal(unit, "ms") { return 1 }
            if equal(unit, "s") { return 1000 }
        case .restingHeartRate:
            if equal(unit, "count/min") { return 1 }
            if equal(unit, "count/s") || equal(unit, "Hz") { return 60 }
        case .steps:
            if equal(unit, "count") { return 1 }
        case .sleep:
            break
        }
        return nil
    }

    private enum SleepValue { case asleep, inBed, awake }

    /// `HKCategoryValueSleepAnalysis…` names, or their raw values (0 in bed, 1 asleep, 2 awake,
    /// 3 core, 4 deep, 5 REM) as some third-party exports write them.
    private static func sleepValue(_ text: UnsafeBufferPointer<UInt8>) -> SleepValue? {
        if equal(text, "HKCategoryValueSleepAnalysisInBed") || equal(text, "0") { return .inBed }
        if equal(text, "HKCategoryValueSleepAnalysisAwake") || equal(text, "2") { return .awake }
        for asleep: StaticString in [
            "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
            "HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAsleepUnspecified",
            "HKCategoryValueSleepAnalysisAsleep", "1", "3", "4", "5",
        ] where equal(text, asleep) {
            return .asleep
        }
        return nil
    }

    /// Metadata booleans are written `1`; older tools wrote `true` or `YES`.
    private static func isTrue(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        equal(text, "1") || String(decoding: text, as: UTF8.self).lowercased() == "true"
            || String(decoding: text, as: UTF8.self).lowercased() == "yes"
    }
}
