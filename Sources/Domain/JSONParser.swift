/// A strict JSON parser (RFC 8259) over UTF-8 bytes, with messages that say where input is wrong.
///
/// Strict where lenient parsers guess: `NaN`, `Infinity`, trailing commas, comments, leading zeros,
/// lone surrogates, invalid UTF-8, duplicate object keys and numbers that overflow a Double are all
/// errors, because each would otherwise store something the sender did not mean.
public struct JSONParser {
    /// Objects and arrays nested deeper than this are refused, so hostile input cannot exhaust the stack.
    public static let maximumDepth = 64

    public init() {}

    /// Parses one complete JSON text; whitespace around it is allowed, anything else after it is not.
    public func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var cursor = Cursor(bytes: bytes)
        return try cursor.wholeText()
    }

    /// Parses like `parse(_:)`, and also says where the value of the top-level object's member
    /// `name` is written: its byte range in `bytes`, `nil` when there is no such member. The text is
    /// how a value is kept exactly as sent (a Double cannot hold every JSON number).
    public func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, locating name: String
    ) throws(JSONSyntaxError) -> (value: JSONValue, memberRange: Range<Int>?) {
        var cursor = Cursor(bytes: bytes, located: name)
        let value = try cursor.wholeText()
        return (value, cursor.locatedRange)
    }

    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try Array(text.utf8).withUnsafeBufferPointer { (bytes) throws(JSONSyntaxError) in try parse(bytes) }
    }

    /// Whether `key` looks like a field name: 1–64 ASCII letters, `_` or `-`, starting with a letter, as
    /// every field name is and a misspelt one (`symptom_severity`, `Mood`) still is. Messages name only such
    /// keys; any other key may hold a value (`"hrv 48.2"`, `"hrv123.456"`, `"steps_9000"`), and a message
    /// never repeats one.
    public static func isFieldName(_ key: String) -> Bool {
        let bytes = key.utf8
        guard let first = bytes.first, bytes.count <= 64, isLetter(first) else { return false }
        return bytes.allSatisfy { byte in isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}

/// A member value that `JSONParser.scanFlatObject(_:_:)` hands over.
public enum FlatJSONValue {
    /// A string written without escapes: its UTF-8 bytes (checked valid), valid only inside the callback.
    case string(UnsafeBufferPointer<UInt8>)
    case number(Double)
    case null
}

extension JSONParser {
    /// A fast path for the flat objects most JSON Lines records are: calls `member` with each key's
    /// bytes and value in order, without building a value or a string. Returns `true` when `bytes`
    /// is one object whose members are all strings without escapes, numbers or `null`, and `member`
    /// accepted every one. Returns `false`, saying nothing of why, for anything else, valid or not
    /// (a nested value, a boolean, an escape, a syntax error, a member refused): the caller then
    /// parses with `parse(_:)`, whose answer and message are the ones that count. Numbers and
    /// strings are read by the same code `parse(_:)` uses, so an accepted value is the one it gives.
    public func scanFlatObject(
        _ bytes: UnsafeBufferPointer<UInt8>, _ member: (UnsafeBufferPointer<UInt8>, FlatJSONValue) -> Bool
    ) -> Bool {
        var cursor = Cursor(bytes: bytes)
        cursor.skipWhitespace()
        guard cursor.take(UInt8(ascii: "{")) else { return false }
        cursor.skipWhitespace()
        if !cursor.take(UInt8(ascii: "}")) {
            while true {
                cursor.skipWhitespace()
                guard cursor.peek == UInt8(ascii: "\""), let key = cursor.plainString() else { return false }
                cursor.skipWhitespace()
                guard cursor.take(UInt8(ascii: ":")) else { return false }
                cursor.skipWhitespace()
                guard let first = cursor.peek else { return false }
                let value: FlatJSONValue
                switch first {
                case UInt8(ascii: "\""):
                    guard let text = cursor.plainString() else { return false }
                    value = .string(text)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let number = try? cursor.number() else { return false }
                    value = .number(number)
                case UInt8(ascii: "n"):
                    guard (try? cursor.literal("null")) != nil else { return false }
                    value = .null
                default:
                    return false
                }
                guard member(key, value) else { return false }
                cursor.skipWhitespace()
                if cursor.take(UInt8(ascii: ",")) { continue }
                guard cursor.take(UInt8(ascii: "}")) else { return false }
                break
            }
        }
        cursor.skipWhitespace()
        return cursor.isAtEnd
    }
}

/// Where and why a JSON text is malformed. `offset` counts bytes from the start of the text, 0-based.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var offset: Int
    public var problem: String

    /// Column as an editor shows it: 1-based, in bytes.
    public var column: Int { offset + 1 }

    public var description: String { "\(problem) at column \(column)" }
}

private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The top-level member whose value's byte range is recorded in `locatedRange`.
    var located: String? = nil
    var locatedRange: Range<Int>? = nil

    var isAtEnd: Bool { index >= bytes.count }

    func error(_ problem: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? index, problem: problem)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The one value the text holds from here: whitespace around it is allowed, anything else after it is not.
    mutating func wholeText() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let parsed = try value(depth: 0)
        skipWhitespace()
        guard isAtEnd else { throw error("unexpected text after the JSON value") }
        return parsed
    }

    /// Steps over `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// The bytes of the string starting here, when it has no escapes and is valid UTF-8 (what
    /// `string()` would return them as); `nil` for any other string, valid or not.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        index += 1  // "
        let start = index
        var hasNonASCII = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            if byte >= 0x80 { hasNonASCII = true }
            index += 1
        }
        guard index < bytes.count else { return nil }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1  // closing quote
        if hasNonASCII, Cursor.firstInvalidUTF8(raw) != nil { return nil }
        return raw
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try array(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not JSON numbers")
        case UInt8(ascii: "'"):
            throw error("strings must use double quotes")
        case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF:
            throw error("unexpected byte order mark (U+FEFF); only the start of the input may have one")
        default:
            throw error("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else { throw error("unexpected word; expected \(word)") }
        index += count
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONObject {
        var object = JSONObject()
        guard try enter(depth: depth, closedBy: UInt8(ascii: "}")) else { return object }
        repeat {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma in an object") }
                throw error("expected a key in double quotes")
            }
            let keyOffset = index
            let key = try string()
            guard object[key] == nil else {
                let name = JSONParser.isFieldName(key) ? " \"\(key)\"" : ""
                throw error("duplicate key\(name)", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after a key")
            }
            index += 1
            skipWhitespace()
            let valueStart = index
            object[key] = try value(depth: depth)
            if depth == 1, let located, key == located { locatedRange = valueStart..<index }
        } while try next(closedBy: UInt8(ascii: "}"), in: "an object")
        return object
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
        var elements: [JSONValue] = []
        guard try enter(depth: depth, closedBy: UInt8(ascii: "]")) else { return elements }
        repeat {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error("trailing comma in an array") }
            elements.append(try value(depth: depth))
        } while try next(closedBy: UInt8(ascii: "]"), in: "an array")
        return elements
    }

    /// Steps into the object or array that opens at `index`, nested `depth` deep; `false` when `close` ends it at
    /// once (`{}`, `[]`), stepped over.
    private mutating func enter(depth: Int, closedBy close: UInt8) throws(JSONSyntaxError) -> Bool {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nested deeper than \(JSONParser.maximumDepth) levels")
        }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == close else { return true }
        index += 1
        return false
    }

    /// Steps over what follows a member or an element of `container` (named so in errors): `true` for a comma, so
    /// another follows; `false` for `close`, which ends it.
    private mutating func next(closedBy close: UInt8, in container: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input inside \(container)") }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return true
        case close:
            index += 1
            return false
        default: throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' in \(container)")
        }
    }

    /// 10⁰ … 10¹⁵, each exact.
    private static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]

    mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            if index < bytes.count, bytes[index] == UInt8(ascii: "I") {
                throw error("NaN and Infinity are not JSON numbers")
            }
            throw error("expected a digit")
        }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw error("numbers must not have leading zeros")
        }
        var isInteger = true
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        var point: Int?
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            point = index
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var hasExponent = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            hasExponent = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let negative = bytes[start] == UInt8(ascii: "-")
        let first = negative ? start + 1 : start
        // Short integers are the common case (steps, severities): accumulate them directly.
        if isInteger, index - start <= 16 {
            var value = 0
            for position in first..<index { value = value * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
            return Double(negative ? -value : value)
        }
        // Short decimals (heart rates, durations): their digits as one whole number, divided by the power of
        // ten of the digits after the point. Both are exact doubles (at most 15 digits in all), and one
        // division rounds correctly, so this is the value `Double(String)` parses (Clinger's fast path).
        if let point, !hasExponent, index - first - 1 <= 15 {
            var whole = 0
            for position in first..<index where position != point {
                whole = whole * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            }
            let value = Double(whole) / Cursor.powersOfTen[index - point - 1]
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number is too large for a 64-bit floating-point value", at: start)
        }
        // `1e-400` becomes 0, which would then pass for the whole number 0: a number that is not
        // zero but is too small for a Double is refused like one too large.
        if value == 0,
            text.utf8.prefix(while: { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }).contains(where: {
                $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9")
            })
        {
            throw error(
                "number is too small for a 64-bit floating-point value; it is not 0, and not a whole number", at: start)
        }
        return value
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        let opening = index
        index += 1  // "
        let start = index
        // Fast path: no escapes, plain ASCII or valid UTF-8 checked once at the end.
        var hasEscapes = false
        var hasNonASCII = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                index += 2
                continue
            }
            if byte < 0x20 { throw error("control character in a string; escape it") }
            if byte >= 0x80 { hasNonASCII = true }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string", at: opening) }
        let end = index
        index += 1  // closing quote
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if hasNonASCII, let invalid = Cursor.firstInvalidUTF8(raw) {
            throw error("invalid UTF-8", at: start + invalid)
        }
        guard hasEscapes else { return String(decoding: raw, as: UTF8.self) }
        return try unescape(raw, offset: start)
    }

    func unescape(_ raw: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONSyntaxError) -> String {
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        func flush() {
            if !utf8.isEmpty {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll(keepingCapacity: true)
            }
        }
        var position = 0
        func hex4(_ at: Int) throws(JSONSyntaxError) -> UInt32 {
            guard at + 4 <= raw.count else { throw error("incomplete \\u escape", at: offset + at) }
            var value: UInt32 = 0
            for byte in raw[at..<(at + 4)] {
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("invalid \\u escape", at: offset + at)
                }
                value = value << 4 | digit
            }
            return value
        }
        while position < raw.count {
            let byte = raw[position]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                position += 1
                continue
            }
            guard position + 1 < raw.count else { throw error("incomplete escape", at: offset + position) }
            let escape = raw[position + 1]
            position += 2
            let scalar: Unicode.Scalar
            switch escape {
            case UInt8(ascii: "\""): scalar = "\""
            case UInt8(ascii: "\\"): scalar = "\\"
            case UInt8(ascii: "/"): scalar = "/"
            case UInt8(ascii: "b"): scalar = "\u{08}"
            case UInt8(ascii: "f"): scalar = "\u{0C}"
            case UInt8(ascii: "n"): scalar = "\n"
            case UInt8(ascii: "r"): scalar = "\r"
            case UInt8(ascii: "t"): scalar = "\t"
            case UInt8(ascii: "u"):
                let unit = try hex4(position)
                position += 4
                var value = unit
                if (0xD800...0xDBFF).contains(unit) {
                    guard position + 6 <= raw.count, raw[position] == UInt8(ascii: "\\"),
                        raw[position + 1] == UInt8(ascii: "u")
                    else { throw error("lone surrogate in a \\u escape", at: offset + position - 6) }
                    let low = try hex4(position + 2)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("lone surrogate in a \\u escape", at: offset + position - 6)
                    }
                    position += 6
                    value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(unit) {
                    throw error("lone surrogate in a \\u escape", at: offset + position - 6)
                }
                guard let decoded = Unicode.Scalar(value) else {
                    throw error("invalid \\u escape", at: offset + position - 6)
                }
                scalar = decoded
            default:
                throw error("invalid escape", at: offset + position - 2)
            }
            flush()
            scalars.append(scalar)
        }
        flush()
        return String(scalars)
    }

    /// The offset of the first byte that is not part of valid UTF-8, or `nil`.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
}
