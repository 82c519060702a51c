import Foundation

/// SplitMix64: a small seeded generator, so that every "random" export is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Where a synthetic record comes from, written the way Health writes each kind of source.
enum SyntheticSource {
    case watch
    case phone
    /// A third-party app, no device description.
    case app(String)
    /// The Health app itself, where a person types values.
    case health

    var name: String {
        switch self {
        case .watch: "Ada’s Apple Watch"
        case .phone: "Ada’s iPhone"
        case .app(let name): name
        case .health: "Health"
        }
    }

    var device: String? {
        switch self {
        case .watch:
            "<<HKDevice: 0x3012772a0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, "
                + "software:10.2>"
        case .phone:
            "<<HKDevice: 0x300d1c4b0>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, "
                + "software:17.2>"
        case .app, .health: nil
        }
    }
}

/// One `<Record>` of a synthetic export, with dates as an export writes them (`2026-03-29 08:00:00 +0200`).
struct SyntheticRecord {
    enum UserEntered {
        case no
        /// `<MetadataEntry key="HKWasUserEntered" value="1"/>`, exports since iOS 9.
        case metadataEntry
        /// `HKWasUserEntered="1"` on the record, iOS 8 exports.
        case attribute
    }

    var type: String
    var source: SyntheticSource
    var unit: String?
    var value: String
    var start: String
    var end: String
    var userEntered: UserEntered = .no
    var metadata: [(key: String, value: String)] = []

    static func steps(_ count: Int, _ start: String, _ end: String, from source: SyntheticSource = .watch) -> Self {
        Self(
            type: "HKQuantityTypeIdentifierStepCount", source: source, unit: "count", value: "\(count)",
            start: start, end: end)
    }

    static func hrv(_ milliseconds: String, at instant: String, unit: String = "ms") -> Self {
        Self(
            type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", source: .watch, unit: unit,
            value: milliseconds, start: instant, end: instant)
    }

    static func restingHeartRate(_ rate: String, _ start: String, _ end: String, unit: String = "count/min") -> Self {
        Self(
            type: "HKQuantityTypeIdentifierRestingHeartRate", source: .watch, unit: unit, value: rate, start: start,
            end: end)
    }

    /// `stage` is the suffix of `HKCategoryValueSleepAnalysis…`: InBed, AsleepCore, Awake …
    static func sleep(_ stage: String, _ start: String, _ end: String, from source: SyntheticSource = .watch) -> Self {
        Self(
            type: "HKCategoryTypeIdentifierSleepAnalysis", source: source, unit: nil,
            value: "HKCategoryValueSleepAnalysis\(stage)", start: start, end: end,
            metadata: [("HKTimeZone", "Europe/Berlin")])
    }

    static func heartRate(_ rate: Int, at instant: String) -> Self {
        Self(
            type: "HKQuantityTypeIdentifierHeartRate", source: .watch, unit: "count/min", value: "\(rate)",
            start: instant, end: instant, metadata: [("HKMetadataKeyHeartRateMotionContext", "0")])
    }

    func enteredByPerson(_ shape: UserEntered = .metadataEntry) -> Self {
        var copy = self
        copy.userEntered = shape
        return copy
    }
}

/// How an export is written: everything here varies between real exports (or between XML writers)
/// and none of it may change what an import reads.
struct ExportStyle {
    var quote: Character = "\""
    var shuffledAttributes = false
    /// Between attributes: a space, or a line break and indentation as in the alxdrcirilo fixture.
    var attributeSeparator = " "
    var lineEnding = "\n"
    /// Apple's inline DTD, as in exports from Export Version 3 on.
    var doctype = false
    /// Comments, a Workout with metadata, an ActivitySummary, and a Correlation whose nested copy of
    /// a record must not be counted twice.
    var noise = false
    /// `’` written as a character reference instead of UTF-8.
    var referencedApostrophes = false
    /// `<Record …></Record>` instead of `<Record …/>` for records without children.
    var explicitEndTags = false
    /// iOS 8: `source` instead of `sourceName`, dates as `20260329080000+0200`, user entry as an attribute.
    var legacy = false

    static func random(using generator: inout SeededGenerator) -> ExportStyle {
        var style = ExportStyle()
        style.quote = Bool.random(using: &generator) ? "\"" : "'"
        style.shuffledAttributes = Bool.random(using: &generator)
        style.attributeSeparator = [" ", "\n        ", "\t", "  \r\n  "].randomElement(using: &generator)!
        style.lineEnding = Bool.random(using: &generator) ? "\n" : "\r\n"
        style.doctype = Bool.random(using: &generator)
        style.noise = Bool.random(using: &generator)
        style.referencedApostrophes = Bool.random(using: &generator)
        style.explicitEndTags = Bool.random(using: &generator)
        style.legacy = Int.random(in: 0..<4, using: &generator) == 0
        return style
    }
}

/// Writes synthetic exports for tests: small, exact scenarios (DST days, midnight sleep, a
/// traveller, overlapping devices) in any `ExportStyle`.
enum HealthExportWriter {
    static func xml(_ records: [SyntheticRecord], style: ExportStyle = ExportStyle(), seed: UInt64 = 1) -> String {
        var generator = SeededGenerator(seed: seed)
        let end = style.lineEnding
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + end
        if style.doctype { out += doctype.replacingOccurrences(of: "\n", with: end) }
        out += "<HealthData locale=\"en_US\">" + end
        out += " <ExportDate value=\"2026-12-31 08:00:00 +0100\"/>" + end
        out += " <Me HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexNotSet\"/>" + end
        if style.noise { out += " <!-- HealthKit export: <Record> in a comment is not a record -->" + end }
        for (index, record) in records.enumerated() {
            out += element(record, style: style, using: &generator)
            if style.noise, index == 0 {
                out +=
                    " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Health\" "
                    + "startDate=\"2026-01-01 08:00:00 +0100\" endDate=\"2026-01-01 08:00:00 +0100\">" + end
                out += element(record, style: style, using: &generator)
                out += "  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>" + end + " </Correlation>" + end
                out +=
                    " <Workout workoutActivityType=\"HKWorkoutActivityTypeWalking\" duration=\"30\" "
                    + "sourceName=\"Health\" startDate=\"2026-01-01 08:00:00 +0100\" "
                    + "endDate=\"2026-01-01 08:30:00 +0100\">" + end
                out += "  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>" + end + " </Workout>" + end
                out += " <ActivitySummary dateComponents=\"2026-01-01\" activeEnergyBurned=\"700\"/>" + end
                out += " <![CDATA[ <Record type=\"HKQuantityTypeIdentifierStepCount\"/> ]]>" + end
                out += " <?processing instruction?>" + end
            }
        }
        return out + "</HealthData>" + end
    }

    private static func element(
        _ record: SyntheticRecord, style: ExportStyle, using generator: inout SeededGenerator
    ) -> String {
        var attributes: [(String, String)] = record.type.isEmpty ? [] : [("type", record.type)]
        attributes.append((style.legacy ? "source" : "sourceName", record.source.name))
        if let device = record.source.device { attributes.append(("device", device)) }
        if let unit = record.unit { attributes.append(("unit", unit)) }
        attributes.append(("creationDate", date(record.end, style)))
        attributes.append(("startDate", date(record.start, style)))
        attributes.append(("endDate", date(record.end, style)))
        attributes.append(("value", record.value))
        var userEntered = record.userEntered
        if style.legacy, userEntered == .metadataEntry { userEntered = .attribute }
        if userEntered == .attribute { attributes.append(("HKWasUserEntered", "1")) }
        if style.shuffledAttributes { attributes.shuffle(using: &generator) }

        let end = style.lineEnding
        var out = " <Record"
        for (name, value) in attributes {
            out +=
                style.attributeSeparator + name + "=" + String(style.quote) + escape(value, style) + String(style.quote)
        }
        var children = record.metadata
        if userEntered == .metadataEntry { children.append(("HKWasUserEntered", "1")) }
        if children.isEmpty {
            return out + (style.explicitEndTags ? "></Record>" : "/>") + end
        }
        out += ">" + end
        for (key, value) in children {
            out +=
                "  <MetadataEntry key=\(style.quote)\(escape(key, style))\(style.quote) "
                + "value=\(style.quote)\(escape(value, style))\(style.quote)"
                + (style.explicitEndTags ? "></MetadataEntry>" : "/>") + end
        }
        return out + " </Record>" + end
    }

    /// `2026-03-29 08:00:00 +0200`, or `20260329080000+0200` in the legacy shape.
    private static func date(_ text: String, _ style: ExportStyle) -> String {
        let parts = text.split(separator: " ")
        guard style.legacy, parts.count == 3 else { return text }
        return parts[0].filter { $0 != "-" } + parts[1].filter { $0 != ":" } + parts[2]
    }

    static func escape(_ value: String, _ style: ExportStyle) -> String {
        var out = ""
        for character in value {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where style.quote == "\"": out += "&quot;"
            case "'" where style.quote == "'": out += "&apos;"
            case "’" where style.referencedApostrophes: out += "&#x2019;"
            default: out.append(character)
            }
        }
        return out
    }

    /// The DTD of an iOS 17 export, shortened: what matters is its shape (ATTLIST with #REQUIRED and
    /// #IMPLIED, comments, quoted text with '>' in it).
    static let doctype = """
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!-- Note: Any Records that appear as children of a correlation also appear as top-level records. -->
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA "a default with > and ] in it"
        >
        ]>

        """
}
