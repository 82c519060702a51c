import Domain
import Testing

@Suite("Printing input in messages")
struct PrintableExcerptTests {
    @Test("names, accents and emoji print as they are")
    func plain() {
        #expect(PrintableExcerpt.of("symptom_severity") == "symptom_severity")
        #expect(PrintableExcerpt.of("Schlafqualität 🙂 hrv 12") == "Schlafqualität 🙂 hrv 12")
    }

    @Test("line breaks, escape sequences and other control characters are escaped")
    func controls() {
        #expect(PrintableExcerpt.of("a\nline 2: forged") == #"a\u{a}line 2: forged"#)
        #expect(
            PrintableExcerpt.of("\u{1B}[31mred\r\t\u{0}\u{7F}\u{9B}") == #"\u{1b}[31mred\u{d}\u{9}\u{0}\u{7f}\u{9b}"#)
    }

    @Test("invisible and reordering characters are escaped")
    func invisible() {
        // Right-to-left override, zero-width space, line separator, no-break space, byte order mark.
        #expect(
            PrintableExcerpt.of("x\u{202E}y\u{200B}z\u{2028}\u{A0}\u{FEFF}")
                == #"x\u{202e}y\u{200b}z\u{2028}\u{a0}\u{feff}"#)
    }

    @Test("a backslash is doubled, so escaped input cannot pass for an escape")
    func backslash() {
        #expect(PrintableExcerpt.of(#"\u{a}"#) == #"\\u{a}"#)
        #expect(PrintableExcerpt.of("\n") != PrintableExcerpt.of(#"\u{a}"#))
    }

    @Test("long text is cut at the limit and ends in an ellipsis")
    func cut() {
        let long = String(repeating: "k", count: 900_000)
        let excerpt = PrintableExcerpt.of(long)
        #expect(excerpt == String(repeating: "k", count: PrintableExcerpt.defaultLimit) + "…")
        #expect(PrintableExcerpt.of(String(repeating: "k", count: 64)) == String(repeating: "k", count: 64))
    }

    @Test("escapes count toward the limit and are never split")
    func cutEscapes() {
        let excerpt = PrintableExcerpt.of(String(repeating: "\n", count: 100), limit: 12)
        #expect(excerpt == #"\u{a}\u{a}…"#)
        let hostile = String(repeating: "\u{1B}\u{202E}\n", count: 10_000)
        #expect(PrintableExcerpt.of(hostile).unicodeScalars.count <= PrintableExcerpt.defaultLimit + 1)
        #expect(PrintableExcerpt.of(hostile).unicodeScalars.allSatisfy { PrintableExcerpt.printsAsItself($0) })
    }
}
