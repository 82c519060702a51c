/// A JSON value whose objects keep their keys in order, so output reads in the order it was built
/// and the same data always prints to the same bytes.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Compact JSON text (no spaces), keys in insertion order.
    public var jsonText: String {
        var output = JSONText()
        if case .object = self { output.bytes.reserveCapacity(1024) }
        write(to: &output)
        return output.string
    }

    /// Appends `jsonText` to `output`.
    public func write(to output: inout String) {
        output += jsonText
    }

    /// Appends the compact JSON text to `output`, which can be given room for a large document first.
    public func write(to output: inout JSONText) {
        switch self {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .number(let number): JSONValue.writeNumber(number, to: &output)
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let elements):
            output.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(",") }
                element.write(to: &output)
            }
            output.append("]")
        case .object(let object):
            output.append("{")
            for (index, member) in object.members.enumerated() {
                if index > 0 { output.append(",") }
                JSONValue.writeString(member.key, to: &output)
                output.append(":")
                member.value.write(to: &output)
            }
            output.append("}")
        }
    }

    /// Whole numbers print without a fraction; others in the shortest form that reads back exactly.
    static func writeNumber(_ number: Double, to output: inout JSONText) {
        precondition(number.isFinite, "JSON has no representation for NaN or infinity")
        if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
            output.write(String(Int64(number)))
        } else {
            number.write(to: &output)
        }
    }

    /// Escapes what JSON requires, and beyond it every character that does not print as itself
    /// (`PrintableExcerpt.printsAsItself`: DEL, the C1 controls, bidirectional overrides, line
    /// separators …), so JSON printed to a terminal cannot drive it. The value read back is the same.
    static func writeString(_ text: String, to output: inout JSONText) {
        output.append("\"")
        // Most strings (keys, feature names, reasons, a model artifact's JSON stored as a value) are ASCII: their
        // bytes are copied a run at a time, each run up to a byte that needs escaping.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            var run = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x7F || byte == 0x22 || byte == 0x5C {
                output.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                writeEscape(ascii: byte, to: &output)
                run = index + 1
            }
            output.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
            return true
        }
        if ascii == true {
            output.append("\"")
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x20, 0x22, 0x5C, 0x7F: writeEscape(ascii: UInt8(scalar.value), to: &output)
            case _ where scalar.value < 0x80 || PrintableExcerpt.printsAsItself(scalar):
                UTF8.encode(scalar) { output.bytes.append($0) }
            default:
                for unit in String(scalar).utf16 { writeEscape(unit, to: &output) }
            }
        }
        output.append("\"")
    }

    /// The escape of an ASCII byte that does not stand for itself in a JSON string: a quote, a backslash, a control.
    private static func writeEscape(ascii byte: UInt8, to output: inout JSONText) {
        switch byte {
        case 0x22: output.append("\\\"")
        case 0x5C: output.append("\\\\")
        case 0x0A: output.append("\\n")
        case 0x0D: output.append("\\r")
        case 0x09: output.append("\\t")
        default: writeEscape(UInt16(byte), to: &output)
        }
    }

    private static func writeEscape(_ unit: UInt16, to output: inout JSONText) {
        let hex = String(unit, radix: 16)
        output.write("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
    }

    public var objectValue: JSONObject? {
        if case .object(let object) = self { object } else { nil }
    }

    public var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    public var numberValue: Double? {
        if case .number(let number) = self { number } else { nil }
    }

    public var boolValue: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    /// A number with an integer value (`2`, not `2.5`), for counts read back from stored documents.
    public var intValue: Int? {
        numberValue.flatMap { Int(exactly: $0) }
    }

    /// A `YYYY-MM-DD` string, as `Day` reads it.
    public var dayValue: Day? {
        stringValue.flatMap { Day($0) }
    }

    /// An array whose every element is a number.
    public var numbersValue: [Double]? {
        guard case .array(let items) = self else { return nil }
        var numbers: [Double] = []
        numbers.reserveCapacity(items.count)
        for item in items {
            guard case .number(let number) = item else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    /// The JSON type's name, for messages such as "expected a number, got a string".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object's members in the order they were written.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    public private(set) var members: [(key: String, value: JSONValue)]

    public init() {
        members = []
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { (key: $0.0, value: $0.1) }
    }

    /// The value for `key`; `nil` when the key is absent (an explicit `null` is `.null`).
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key: key, value: newValue))
            }
        }
    }

    public var keys: [String] { members.map(\.key) }

    public var jsonText: String { JSONValue.object(self).jsonText }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

/// JSON text as it is written: UTF-8 bytes, appended without the checks a `String` makes on every append.
/// Numbers print through `TextOutputStream`, whose ASCII path hands a `Double`'s digits over without an
/// intermediate string.
public struct JSONText: TextOutputStream, Sendable {
    public var bytes: [UInt8] = []

    public init() {}

    /// The text written so far.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func write(_ string: String) {
        bytes.append(contentsOf: string.utf8)
    }

    public mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
