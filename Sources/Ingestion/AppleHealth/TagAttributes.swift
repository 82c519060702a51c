#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where one attribute of the current tag lies in the scanner's buffer.
struct AttributeSlot {
    var nameStart: Int
    var nameLength: Int
    var valueStart: Int
    var valueLength: Int
    /// The raw value holds an entity or character reference, or a tab or line break that XML
    /// normalizes to a space (XML 1.0 §3.3.3), so its bytes are not yet its value.
    var needsDecoding: Bool
}

/// The attributes of one start tag, as positions in the scanner's buffer.
///
/// Valid only during the handler call that receives it: the buffer moves when the scanner reads on.
/// The scanner has already checked every entity and character reference, so decoding cannot fail.
struct TagAttributes {
    let base: UnsafePointer<UInt8>
    let slots: UnsafeBufferPointer<AttributeSlot>

    var count: Int { slots.count }

    func name(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + slots[index].nameStart, count: slots[index].nameLength)
    }

    /// The bytes between the quotes, before entity expansion.
    func rawValue(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + slots[index].valueStart, count: slots[index].valueLength)
    }

    /// Calls `body` with the attribute's value, decoded only when it needs to be.
    func withValue<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard slots[index].needsDecoding else { return body(rawValue(index)) }
        return TagAttributes.decode(rawValue(index)).withUnsafeBufferPointer(body)
    }

    /// The value as bytes, entities expanded.
    func value(_ index: Int) -> [UInt8] {
        slots[index].needsDecoding ? TagAttributes.decode(rawValue(index)) : Array(rawValue(index))
    }

    /// The value as text, entities expanded.
    func string(_ index: Int) -> String {
        withValue(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Expands the five predefined entities and character references, and turns each tab, line feed,
    /// carriage return or CR LF pair into one space, as XML 1.0 §3.3.3 normalizes a CDATA attribute.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            switch byte {
            case UInt8(ascii: "&"):
                var end = index + 1
                while raw[end] != UInt8(ascii: ";") { end += 1 }
                let body = UnsafeBufferPointer(rebasing: raw[(index + 1)..<end])
                guard let scalar = TagAttributes.entity(body) else {
                    preconditionFailure("the scanner lets only known entities through")
                }
                UTF8.encode(scalar) { out.append($0) }
                index = end
            case UInt8(ascii: "\r"):
                out.append(UInt8(ascii: " "))
                if index + 1 < raw.count, raw[index + 1] == UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                out.append(UInt8(ascii: " "))
            default:
                out.append(byte)
            }
            index += 1
        }
        return out
    }

    /// The character an entity or character reference stands for, given the text between `&` and
    /// `;`; `nil` for an unknown entity or a reference to a character XML does not allow.
    static func entity(_ body: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        func named(_ name: StaticString) -> Bool {
            body.count == name.utf8CodeUnitCount && memcmp(body.baseAddress!, name.utf8Start, body.count) == 0
        }
        if named("lt") { return "<" }
        if named("gt") { return ">" }
        if named("amp") { return "&" }
        if named("quot") { return "\"" }
        if named("apos") { return "'" }
        guard body.count >= 2, body[0] == UInt8(ascii: "#") else { return nil }
        let hex = body[1] == UInt8(ascii: "x")
        let digits = body.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var code: UInt32 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): code = code * (hex ? 16 : 10) + UInt32(digit - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: code = code * 16 + UInt32(digit - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: code = code * 16 + UInt32(digit - 55)
            default: return nil
            }
        }
        // XML 1.0 §2.2 `Char`: tab, LF, CR, and the Unicode scalars from U+0020 except the
        // surrogates and U+FFFE/U+FFFF.
        switch code {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return Unicode.Scalar(code)
        default: return nil
        }
    }
}
