/// Escaping for text placed in HTML and SVG, the only way text enters a page.
///
/// `&`, `<`, `>`, `"` and `'` become character references, so no input can open a tag or leave an
/// attribute; control characters other than tab and newline (and DEL and the C1 controls, which some
/// terminals and viewers act on) are shown as `\u{…}`, as `Domain.PrintableExcerpt` shows them in messages.
public enum HTMLText {
    /// Text content of an element.
    public static func text(_ value: some StringProtocol) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if isControl(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A value inside a double-quoted attribute: the same escapes, and newlines and tabs too.
    public static func attribute(_ value: some StringProtocol) -> String {
        text(value).replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\t", with: "&#9;")
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || scalar.properties.generalCategory == .format && (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }
}
