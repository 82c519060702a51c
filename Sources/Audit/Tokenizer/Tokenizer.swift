/// One lexical token of Swift source: a byte range, the line it starts on, and what it is.
///
/// Comments and whitespace produce no tokens, so code inside a comment is never seen by a rule. A string
/// literal is one token however many lines, interpolations or nested literals it holds.
struct Token: Sendable {
    enum Kind: UInt8, Sendable {
        /// A name or keyword; for `` `name` `` the range excludes the backticks.
        case identifier
        case number
        /// A string literal without interpolation; its value is known.
        case string
        /// A string literal with at least one `\( … )`.
        case interpolatedString
        /// One byte of punctuation or operator.
        case punctuation
        /// `#if`, `#elseif`, `#else`, `#endif` (the condition after `#if` is skipped with the line).
        case directive
    }

    var start: UInt32
    var end: UInt32
    var line: UInt32
    var kind: Kind
    var word: Word
}

/// Splits Swift source into tokens in one pass over its UTF-8 bytes.
///
/// Follows [The Swift Programming Language: Lexical Structure](https://docs.swift.org/swift-book/documentation/
/// the-swift-programming-language/lexicalstructure/): block comments nest; string literals may be multi-line
/// (`"""`), raw (`#"…"#` with any number of `#`), and interpolated (`\( … )`, `\#( … )` in raw literals) with
/// nested parentheses, comments and string literals inside the interpolation. Bare `/regex/` literals are not
/// recognised (telling them from division needs the parser); `#/regex/#` literals are.
struct Tokenizer {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line: UInt32 = 1
    private var tokens: [Token] = []
    private let words = WordTable.shared

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        tokens.reserveCapacity(bytes.count / 5)
    }

    static func tokenize(_ bytes: UnsafeBufferPointer<UInt8>) -> [Token] {
        var tokenizer = Tokenizer(bytes)
        tokenizer.run()
        return tokenizer.tokens
    }

    static func tokenize(_ bytes: [UInt8]) -> [Token] {
        bytes.withUnsafeBufferPointer { tokenize($0) }
    }

    private mutating func run() {
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case ASCII.newline:
                line += 1
                index += 1
            case ASCII.space, ASCII.tab, ASCII.carriageReturn, 0x0B, 0x0C:
                index += 1
            case ASCII.slash:
                let next = peek(1)
                if next == ASCII.slash {
                    skipLineComment()
                } else if next == ASCII.star {
                    skipBlockComment()
                } else {
                    emitPunctuation()
                }
            case ASCII.quote:
                lexString(hashes: 0, from: index)
            case ASCII.hash:
                lexHash()
            case ASCII.backtick:
                lexBacktickIdentifier()
            case ASCII.zero...ASCII.nine:
                lexNumber()
            default:
                if Self.isIdentifierHead(byte) {
                    lexIdentifier()
                } else {
                    emitPunctuation()
                }
            }
        }
    }

    // MARK: Small pieces

    @inline(__always)
    private func peek(_ offset: Int) -> UInt8 {
        let position = index + offset
        return position < bytes.count ? bytes[position] : 0
    }

    @inline(__always)
    static func isIdentifierHead(_ byte: UInt8) -> Bool {
        (byte >= ASCII.lowerA && byte <= ASCII.lowerZ) || (byte >= ASCII.upperA && byte <= ASCII.upperZ)
            || byte == ASCII.underscore || byte == ASCII.dollar || byte >= 0x80
    }

    @inline(__always)
    static func isIdentifierBody(_ byte: UInt8) -> Bool {
        isIdentifierHead(byte) || (byte >= ASCII.zero && byte <= ASCII.nine)
    }

    private mutating func emit(
        _ kind: Token.Kind, from start: Int, to end: Int, line startLine: UInt32,
        word: Word = .none
    ) {
        tokens.append(Token(start: UInt32(start), end: UInt32(end), line: startLine, kind: kind, word: word))
    }

    private mutating func emitPunctuation() {
        emit(.punctuation, from: index, to: index + 1, line: line)
        index += 1
    }

    private mutating func skipLineComment() {
        while index < bytes.count, bytes[index] != ASCII.newline { index += 1 }
    }

    /// Skips `/* … */`, counting nested `/*` so that `/* a /* b */ c */` ends after `c */`.
    private mutating func skipBlockComment() {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.slash, peek(1) == ASCII.star {
                depth += 1
                index += 2
            } else if byte == ASCII.star, peek(1) == ASCII.slash {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                if byte == ASCII.newline { line += 1 }
                index += 1
            }
        }
    }

    private mutating func lexIdentifier() {
        let start = index
        index += 1
        while index < bytes.count, Self.isIdentifierBody(bytes[index]) { index += 1 }
        emit(.identifier, from: start, to: index, line: line, word: words.word(bytes, start, index))
    }

    private mutating func lexBacktickIdentifier() {
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != ASCII.backtick, bytes[end] != ASCII.newline { end += 1 }
        emit(.identifier, from: start, to: end, line: line)
        index = end < bytes.count && bytes[end] == ASCII.backtick ? end + 1 : end
    }

    /// Digits, hex/octal/binary prefixes, `_` separators, a fraction only when a digit follows the dot (so
    /// `1..<5` and `tuple.0.1` stay apart) and signed exponents.
    private mutating func lexNumber() {
        let start = index
        // After a `.` a number is a tuple element (`pair.0.1`), never a fraction.
        let wholeOnly = start > 0 && bytes[start - 1] == ASCII.dot
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isIdentifierBody(byte) {
                let lower = byte | 0x20
                index += 1
                if lower == ASCII.lowerE || lower == ASCII.lowerP, index < bytes.count,
                    bytes[index] == ASCII.plus || bytes[index] == ASCII.minus
                {
                    index += 1
                }
            } else if byte == ASCII.dot, !wholeOnly, index + 1 < bytes.count, bytes[index + 1] >= ASCII.zero,
                bytes[index + 1] <= ASCII.nine
            {
                index += 1
            } else {
                break
            }
        }
        emit(.number, from: start, to: index, line: line)
    }

    /// `#if` family, raw strings `#"…"#`, raw regex literals `#/…/#`, or a `#` before a name (`#selector`).
    private mutating func lexHash() {
        let start = index
        var hashes = 0
        while peek(hashes) == ASCII.hash { hashes += 1 }
        let after = peek(hashes)
        if after == ASCII.quote {
            lexString(hashes: hashes, from: start)
            return
        }
        if after == ASCII.slash {
            lexRawRegex(hashes: hashes)
            return
        }
        if hashes == 1, Self.isIdentifierHead(peek(1)) {
            var end = index + 1
            while end < bytes.count, Self.isIdentifierBody(bytes[end]) { end += 1 }
            if isDirective(from: index + 1, to: end) {
                let name = bytes[(index + 1)..<end]
                emit(.directive, from: start, to: end, line: line, word: directiveWord(from: index + 1, to: end))
                index = end
                if name.elementsEqual("if".utf8) || name.elementsEqual("elseif".utf8) {
                    // The condition names build settings and platforms, not code.
                    skipLineComment()
                }
                return
            }
        }
        emitPunctuation()
    }

    private func isDirective(from start: Int, to end: Int) -> Bool {
        let name = bytes[start..<end]
        return name.elementsEqual("if".utf8) || name.elementsEqual("elseif".utf8) || name.elementsEqual("else".utf8)
            || name.elementsEqual("endif".utf8)
    }

    /// `#if` → `.if`, `#elseif` → `.else` paired with `.if` by the reader, `#else` → `.else`, `#endif` → `.none`.
    private func directiveWord(from start: Int, to end: Int) -> Word {
        let name = bytes[start..<end]
        if name.elementsEqual("if".utf8) { return .if }
        if name.elementsEqual("elseif".utf8) { return .else }
        if name.elementsEqual("else".utf8) { return .else }
        return .none
    }

    private mutating func lexRawRegex(hashes: Int) {
        let start = index
        let startLine = line
        index += hashes + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.newline { line += 1 }
            if byte == ASCII.backslash {
                // A backslash escapes the next byte; the last byte of a file has none after it.
                index = min(index + 2, bytes.count)
                continue
            }
            if byte == ASCII.slash, closesWithHashes(at: index + 1, hashes) {
                index += 1 + hashes
                break
            }
            index += 1
        }
        emit(.string, from: start, to: index, line: startLine)
    }

    @inline(__always)
    private func closesWithHashes(at position: Int, _ hashes: Int) -> Bool {
        guard position + hashes <= bytes.count else { return false }
        for offset in 0..<hashes where bytes[position + offset] != ASCII.hash { return false }
        return true
    }

    // MARK: String literals

    /// Lexes a string literal whose first `"` is at `index + hashes` (the literal starts at `start`) and emits it.
    private mutating func lexString(hashes: Int, from start: Int) {
        let startLine = line
        let interpolated = scanString(hashes: hashes)
        emit(interpolated ? .interpolatedString : .string, from: start, to: index, line: startLine)
    }

    /// Moves `index` past a string literal that starts at `index` (at its `#`s or its quote); returns whether it
    /// holds an interpolation. An unterminated single-line literal ends at the end of its line.
    private mutating func scanString(hashes: Int) -> Bool {
        index += hashes
        let multiline = peek(1) == ASCII.quote && peek(2) == ASCII.quote
        index += multiline ? 3 : 1
        var interpolated = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                if multiline {
                    if peek(1) == ASCII.quote, peek(2) == ASCII.quote, closesWithHashes(at: index + 3, hashes) {
                        index += 3 + hashes
                        return interpolated
                    }
                } else if closesWithHashes(at: index + 1, hashes) {
                    index += 1 + hashes
                    return interpolated
                }
                index += 1
            } else if byte == ASCII.backslash, closesWithHashes(at: index + 1, hashes) {
                index += 1 + hashes
                guard index < bytes.count else { return interpolated }
                let escaped = bytes[index]
                if escaped == ASCII.openParen {
                    interpolated = true
                    index += 1
                    scanInterpolation()
                } else {
                    if escaped == ASCII.newline { line += 1 }
                    index += 1
                }
            } else if byte == ASCII.newline {
                if !multiline { return interpolated }
                line += 1
                index += 1
            } else {
                index += 1
            }
        }
        return interpolated
    }

    /// Moves `index` past the `)` that closes an interpolation whose `(` was just consumed, stepping over nested
    /// parentheses, string literals and comments inside it.
    private mutating func scanInterpolation() {
        var depth = 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case ASCII.openParen:
                depth += 1
                index += 1
            case ASCII.closeParen:
                depth -= 1
                index += 1
                if depth == 0 { return }
            case ASCII.quote:
                _ = scanString(hashes: 0)
            case ASCII.hash:
                var hashes = 0
                while peek(hashes) == ASCII.hash { hashes += 1 }
                if peek(hashes) == ASCII.quote {
                    _ = scanString(hashes: hashes)
                } else {
                    index += hashes
                }
            case ASCII.slash where peek(1) == ASCII.slash:
                skipLineComment()
            case ASCII.slash where peek(1) == ASCII.star:
                skipBlockComment()
            case ASCII.newline:
                line += 1
                index += 1
            default:
                index += 1
            }
        }
    }
}

/// The bytes the tokenizer and the passes after it compare against.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let bang: UInt8 = 0x21
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let dollar: UInt8 = 0x24
    static let ampersand: UInt8 = 0x26
    static let openParen: UInt8 = 0x28
    static let closeParen: UInt8 = 0x29
    static let star: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let less: UInt8 = 0x3C
    static let equals: UInt8 = 0x3D
    static let greater: UInt8 = 0x3E
    static let question: UInt8 = 0x3F
    static let at: UInt8 = 0x40
    static let upperA: UInt8 = 0x41
    static let upperZ: UInt8 = 0x5A
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let underscore: UInt8 = 0x5F
    static let backtick: UInt8 = 0x60
    static let lowerA: UInt8 = 0x61
    static let lowerE: UInt8 = 0x65
    static let lowerI: UInt8 = 0x69
    static let lowerL: UInt8 = 0x6C
    static let lowerP: UInt8 = 0x70
    static let lowerZ: UInt8 = 0x7A
    static let openBrace: UInt8 = 0x7B
    static let pipe: UInt8 = 0x7C
    static let closeBrace: UInt8 = 0x7D
}
