import Foundation

/// Escaping for text placed in HTML and SVG, the only way text enters a page.
///
/// `&`, `<`, `>`, `"` and `'` become character references, so no input can open a tag or leave an
/// attribute; control characters other than tab and newline (and DEL and the C1 controls, which some
/// terminals and viewers act on) are shown as `\u{…}`, as `Domain.PrintableExcerpt` shows them in messages.
public enum HTMLText {
    /// Text content of an element.
    public static func text(_ value: some StringProtocol) -> String {
        // Most text (numbers, days, our own words) needs nothing: keep it as it is.
        if value.utf8.allSatisfy({ (0x20...0x7E).contains($0) && !needsReference($0) || $0 == 0x0A || $0 == 0x09 }) {
            return String(value)
        }
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
        let escaped = text(value)
        guard escaped.utf8.contains(where: { $0 == 0x0A || $0 == 0x09 }) else { return escaped }
        return escaped.replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\t", with: "&#9;")
    }

    /// `&`, `<`, `>`, `"`, `'`.
    private static func needsReference(_ byte: UInt8) -> Bool {
        byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
    }

    /// C0 and C1 controls, DEL, and the bidirectional embeddings, overrides and isolates, which can
    /// make text read in another order than it is stored.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }
}
