/// Text from input, made safe to print in a message: every character that does not print as itself
/// is escaped, and the result is cut short.
///
/// A message echoes input (an unknown key, a watch kind, a record type) so a person can find it, but
/// input is not trusted: a newline would forge extra lines in cron mail, an escape sequence would
/// drive the terminal, a bidirectional override would reorder what is shown, and a key of a megabyte
/// would make a line of a megabyte. Escaping uses Swift's `\u{…}` form and `\\` for a backslash, so
/// no two inputs print alike.
public enum PrintableExcerpt {
    /// How many characters of output an excerpt keeps before it is cut and ends in `…`.
    public static let defaultLimit = 64

    /// `text` with non-printing characters escaped, at most `limit` characters plus a final `…`
    /// when something was cut. An escape is never split.
    public static func of(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        var output = ""
        var count = 0
        for scalar in text.unicodeScalars {
            let piece = escaped(scalar)
            guard count + piece.unicodeScalars.count <= limit else {
                output += "…"
                return output
            }
            output += piece
            count += piece.unicodeScalars.count
        }
        return output
    }

    /// Whether `scalar` is printed as itself: not a control, format, separator (other than the
    /// space), private-use, surrogate or unassigned code point.
    public static func printsAsItself(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            false
        case .spaceSeparator:
            scalar == " "
        default:
            true
        }
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        if scalar == "\\" { return "\\\\" }
        if printsAsItself(scalar) { return String(scalar) }
        return "\\u{" + String(scalar.value, radix: 16) + "}"
    }
}
