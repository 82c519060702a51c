/// Decimal numbers from attribute values, without making a `String` per record.
enum ExportNumber {
    /// The value of a decimal such as `48.2345`, `-3` or `1.5e2`; `nil` for anything else and for
    /// infinities and NaN.
    ///
    /// Up to 15 significant digits with a power of ten of at most 22 take Clinger's fast path: both
    /// the digits and the power are exact doubles, so one multiplication or division is correctly
    /// rounded. Anything longer goes through the standard library's correctly rounded parser.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var sawDigit = false
        var sawPoint = false
        while index < text.count {
            let byte = text[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                sawDigit = true
                if mantissa != 0 || byte != UInt8(ascii: "0") { significant += 1 }
                guard significant <= 15 else { return slowPath(text) }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if sawPoint { exponent -= 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                return sawDigit ? slowPath(text) : nil
            } else {
                return nil
            }
            index += 1
        }
        guard sawDigit else { return nil }
        guard exponent >= -22 else { return slowPath(text) }
        let magnitude = exponent == 0 ? Double(mantissa) : Double(mantissa) / powersOfTen[-exponent]
        return negative ? -magnitude : magnitude
    }

    private static let powersOfTen: [Double] = (0...22).map { power in
        (0..<power).reduce(1.0) { value, _ in value * 10 }
    }

    private static func slowPath(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}
