/// One Swift file, tokenized, with its brackets matched and its scopes known.
///
/// Built from bytes in two linear passes (tokens, then structure); immutable afterwards.
final class SourceFile: Sendable {
    let path: String
    let bytes: [UInt8]
    let tokens: [Token]
    /// For each `(`, `[`, `{` the index of its closer and vice versa; `-1` for other tokens and unmatched ones.
    let matching: [Int32]
    /// `scopes[0]` is the file.
    let scopes: [Scope]
    /// The innermost scope of each token; a `{` and its `}` belong to the scope they delimit.
    let scopeOf: [Int32]

    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        let tokens = Tokenizer.tokenize(bytes)
        self.tokens = tokens
        let structure = bytes.withUnsafeBufferPointer { StructureBuilder.build(tokens: tokens, bytes: $0) }
        matching = structure.matching
        scopes = structure.scopes
        scopeOf = structure.scopeOf
    }

    var count: Int { tokens.count }

    // MARK: Reading tokens

    @inline(__always)
    func word(_ index: Int) -> Word {
        index >= 0 && index < tokens.count ? tokens[index].word : .none
    }

    /// Whether token `index` is the punctuation byte `byte`.
    @inline(__always)
    func isPunct(_ index: Int, _ byte: UInt8) -> Bool {
        guard index >= 0, index < tokens.count else { return false }
        let token = tokens[index]
        return token.kind == .punctuation && bytes[Int(token.start)] == byte
    }

    /// Whether token `index` is the `=` of an assignment or binding, not part of `==`, `!=`, `<=` or `>=`.
    func isAssignment(_ index: Int) -> Bool {
        isPunct(index, ASCII.equals) && !isPunct(index + 1, ASCII.equals) && !isPunct(index - 1, ASCII.equals)
            && !isPunct(index - 1, ASCII.bang) && !isPunct(index - 1, ASCII.less) && !isPunct(index - 1, ASCII.greater)
    }

    @inline(__always)
    func isIdentifier(_ index: Int) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].kind == .identifier
    }

    /// Whether token `index` is an identifier spelled `name`.
    func `is`(_ index: Int, _ name: StaticString) -> Bool {
        guard index >= 0, index < tokens.count else { return false }
        let token = tokens[index]
        guard token.kind == .identifier, Int(token.end - token.start) == name.utf8CodeUnitCount else { return false }
        let start = Int(token.start)
        return name.withUTF8Buffer { expected in
            for offset in 0..<expected.count where bytes[start + offset] != expected[offset] { return false }
            return true
        }
    }

    /// Whether token `index` names UIKit's `beginBackgroundTask`, as Swift spells it today or as Swift 1 and 2
    /// imported it (`beginBackgroundTaskWithExpirationHandler(_:)`,
    /// `beginBackgroundTaskWithName(_:expirationHandler:)`): the same call, which old sources still make.
    func isBeginBackgroundTask(_ index: Int) -> Bool {
        `is`(index, "beginBackgroundTask") || `is`(index, "beginBackgroundTaskWithExpirationHandler")
            || `is`(index, "beginBackgroundTaskWithName")
    }

    func text(_ index: Int) -> String {
        let token = tokens[index]
        return String(decoding: bytes[Int(token.start)..<Int(token.end)], as: UTF8.self)
    }

    /// The condition of the `#if` or `#elseif` at `index`: the rest of its line, which the tokenizer skips.
    func directiveCondition(_ index: Int) -> String {
        var end = Int(tokens[index].end)
        while end < bytes.count, bytes[end] != ASCII.newline { end += 1 }
        return String(decoding: bytes[Int(tokens[index].end)..<end], as: UTF8.self)
    }

    /// The value in an iOS device build of the condition that opens the branch at the `#if`, `#elseif` or `#else` at
    /// `index` (`BuildCondition`): `true` for an `#else`, the branches before it already left out.
    func branchCondition(at index: Int) -> Bool? {
        text(index) == "#else" ? true : BuildCondition.value(of: directiveCondition(index))
    }

    /// The lines an iOS device build never compiles: the branches of `#if` groups whose condition surely does not hold
    /// there (`BuildCondition`), or that follow one that surely does, each from its directive to the next.
    func unbuiltLines() -> [ClosedRange<Int>] {
        struct Group {
            var taken = false
            var branchBuilt = true
            var branchLine = 0
            var outerBuilt = true
        }
        var groups: [Group] = []
        var ranges: [ClosedRange<Int>] = []
        func close(_ group: Group, at line: Int) {
            if group.outerBuilt, !group.branchBuilt, group.branchLine <= line { ranges.append(group.branchLine...line) }
        }
        for index in tokens.indices where tokens[index].kind == .directive {
            let line = Int(tokens[index].line)
            switch word(index) {
            case .if:
                let outer = groups.last.map { $0.outerBuilt && $0.branchBuilt } ?? true
                let value = branchCondition(at: index)
                groups.append(
                    Group(taken: value == true, branchBuilt: value != false, branchLine: line, outerBuilt: outer))
            case .else:
                guard var group = groups.popLast() else { continue }
                close(group, at: line)
                let value = branchCondition(at: index)
                group.branchBuilt = !group.taken && value != false
                group.taken = group.taken || value == true
                group.branchLine = line
                groups.append(group)
            default:
                guard let group = groups.popLast() else { continue }
                close(group, at: line)
            }
        }
        return ranges
    }

    /// The source text from the start of token `first` to the end of token `last`, whitespace collapsed.
    func text(from first: Int, through last: Int) -> String {
        guard first <= last, first >= 0, last < tokens.count else { return "" }
        var output = ""
        for index in first...last {
            if index > first, tokens[index].start > tokens[index - 1].end, needsSpace(between: index - 1, index) {
                output += " "
            }
            output += text(index)
        }
        return output
    }

    private func needsSpace(between left: Int, _ right: Int) -> Bool {
        let leftIsWord = tokens[left].kind != .punctuation
        let rightIsWord = tokens[right].kind != .punctuation
        return leftIsWord && rightIsWord
    }

    func line(_ index: Int) -> Int {
        guard index >= 0, index < tokens.count else { return tokens.last.map { Int($0.line) } ?? 1 }
        return Int(tokens[index].line)
    }

    /// The 1-based column of token `index`, counted in Unicode scalars from the start of its line.
    func column(_ index: Int) -> Int {
        guard index >= 0, index < tokens.count else { return 1 }
        let start = Int(tokens[index].start)
        var lineStart = start
        while lineStart > 0, bytes[lineStart - 1] != ASCII.newline { lineStart -= 1 }
        var column = 1
        for offset in lineStart..<start where bytes[offset] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    func location(_ index: Int) -> SourceLocation {
        SourceLocation(file: path, line: line(index), column: column(index))
    }

    /// The value of a string literal token without interpolation; escapes `\n \t \" \\ \0 \u{…}` decoded.
    func stringValue(_ index: Int) -> String? {
        guard index >= 0, index < tokens.count else { return nil }
        let token = tokens[index]
        guard token.kind == .string else { return nil }
        var start = Int(token.start)
        var end = Int(token.end)
        var hashes = 0
        while start < end, bytes[start] == ASCII.hash {
            hashes += 1
            start += 1
        }
        end -= hashes
        guard end - start >= 2, bytes[start] == ASCII.quote else { return nil }
        let multiline = end - start >= 6 && bytes[start + 1] == ASCII.quote && bytes[start + 2] == ASCII.quote
        let quoteLength = multiline ? 3 : 1
        start += quoteLength
        end -= quoteLength
        guard start <= end else { return nil }
        let body = bytes[start..<end]
        if hashes > 0 || !body.contains(ASCII.backslash) {
            return String(decoding: body, as: UTF8.self)
        }
        return Self.unescape(Array(body))
    }

    private static func unescape(_ body: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(body.count)
        var index = 0
        while index < body.count {
            let byte = body[index]
            guard byte == ASCII.backslash, index + 1 < body.count else {
                output.append(byte)
                index += 1
                continue
            }
            let escaped = body[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "n"): output.append(ASCII.newline)
            case UInt8(ascii: "t"): output.append(ASCII.tab)
            case UInt8(ascii: "r"): output.append(ASCII.carriageReturn)
            case UInt8(ascii: "0"): output.append(0)
            case UInt8(ascii: "u"):
                var scalarEnd = index
                while scalarEnd < body.count, body[scalarEnd] != ASCII.closeBrace { scalarEnd += 1 }
                let digits = String(decoding: body[min(index + 1, scalarEnd)..<scalarEnd], as: UTF8.self)
                if let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) {
                    output.append(contentsOf: Array(String(Character(scalar)).utf8))
                }
                index = scalarEnd + 1
            default: output.append(escaped)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: Structure queries

    /// The innermost function, initialiser or computed property that contains token `index`, if any.
    func callable(containing index: Int) -> Int? {
        var scope = Int(scopeOf[index])
        while scope > 0 {
            if scopes[scope].isCallable { return scope }
            scope = Int(scopes[scope].parent)
        }
        return nil
    }

    /// The innermost type scope that contains scope `scope`.
    func enclosingType(ofScope scope: Int) -> Int? {
        var current = Int(scopes[scope].parent)
        while current > 0 {
            if scopes[current].kind == .type { return current }
            current = Int(scopes[current].parent)
        }
        return nil
    }

    /// The index of the token after a complete expression that starts at `start`: the expression ends at the
    /// first `,` `)` `]` `}` `;` at its own nesting level, or where a new line starts a new statement.
    func expressionEnd(from start: Int, limit: Int) -> Int {
        var index = start
        while index < limit {
            let token = tokens[index]
            if token.kind == .punctuation {
                let byte = bytes[Int(token.start)]
                if byte == ASCII.comma || byte == ASCII.closeParen || byte == ASCII.closeBracket
                    || byte == ASCII.closeBrace || byte == ASCII.semicolon
                {
                    return index
                }
                if byte == ASCII.openParen || byte == ASCII.openBracket || byte == ASCII.openBrace {
                    let close = Int(matching[index])
                    if close < 0 { return limit }
                    index = close + 1
                    continue
                }
            }
            if index > start, startsStatement(index) { return index }
            index += 1
        }
        return limit
    }

    /// The body (function or closure) token `index` is in: where a local name lives and dies.
    func enclosingBody(of index: Int) -> (open: Int, close: Int)? {
        var scope = Int(scopeOf[index])
        while scope > 0 {
            let current = scopes[scope]
            if current.isCallable || current.kind == .closure { return (Int(current.open), Int(current.close)) }
            scope = Int(current.parent)
        }
        return nil
    }

    /// The `=` of each `let name = …` or `var name = …` (a type annotation, `: @Sendable () -> Void`, allowed on the
    /// same line) declared in the body around token `index`, before it, in order.
    func localBindings(named name: String, before index: Int) -> [Int] {
        // (Broken code can leave a token in a scope opened after it.)
        guard let body = enclosingBody(of: index), body.open < index else { return [] }
        var found: [Int] = []
        for keyword in (body.open + 1)..<index where word(keyword) == .let || word(keyword) == .var {
            guard isIdentifier(keyword + 1), text(keyword + 1) == name else { continue }
            var equals = keyword + 2
            if isPunct(equals, ASCII.colon) {
                while equals < index, !isPunct(equals, ASCII.equals), line(equals) == line(keyword) {
                    if matching[equals] > equals { equals = Int(matching[equals]) }
                    equals += 1
                }
            }
            if isPunct(equals, ASCII.equals) { found.append(equals) }
        }
        return found
    }

    /// For the closure whose `{` is at `open`, the name token of the local it initializes (`let finish = { … }`,
    /// `var done: () -> Void = { … }`), or `nil`: such a closure is declared where it stands and runs where it is called.
    func declaredName(ofClosureAt open: Int) -> Int? {
        // `let value: T = { … }()` runs the closure where it stands.
        let close = Int(matching[open])
        guard close > open, !isPunct(close + 1, ASCII.openParen) else { return nil }
        return declaredName(assignedBy: open - 1)
    }

    /// The name token of the local that the `=` at `equals` initializes (`let name = …`, `var name: T = …`), or `nil`.
    func declaredName(assignedBy equals: Int) -> Int? {
        guard equals >= 2, isPunct(equals, ASCII.equals) else { return nil }
        var index = equals - 1
        while index > 1, line(index) == line(equals) {
            if isIdentifier(index), word(index - 1) == .let || word(index - 1) == .var,
                index == equals - 1 || isPunct(index + 1, ASCII.colon)
            {
                return index
            }
            index -= 1
        }
        return nil
    }

    /// The accessor blocks of the stored properties named `name` this file declares with observers (`var task: ID? {
    /// willSet { … } }`), as the token ranges inside their braces: the code there runs each time the property is set.
    func observerBlocks(ofProperty name: String) -> [Range<Int>] {
        var blocks: [Range<Int>] = []
        for declaration in 0..<count
        where word(declaration) == .var && isIdentifier(declaration + 1) && text(declaration + 1) == name {
            var open = declaration + 2
            while open < min(declaration + 16, count), !isPunct(open, ASCII.openBrace), line(open) == line(declaration)
            {
                open += 1
            }
            guard isPunct(open, ASCII.openBrace), line(open) == line(declaration) else { continue }
            let close = Int(matching[open])
            guard close > open,
                (open + 1..<close).contains(where: {
                    (word($0) == .willSet || word($0) == .didSet) && isPunct($0 + 1, ASCII.openBrace)
                })
            else { continue }
            blocks.append((open + 1)..<close)
        }
        return blocks
    }

    /// Whether token `index`, on a later line than the token before it, begins a new statement rather than
    /// continuing the previous line (`.modifier` chains and trailing binary operators continue it).
    func startsStatement(_ index: Int) -> Bool {
        guard index > 0 else { return true }
        let previous = tokens[index - 1]
        guard tokens[index].line > previous.line else { return false }
        if isPunct(index, ASCII.dot) || isPunct(index, ASCII.question) && isPunct(index + 1, ASCII.dot) { return false }
        if previous.kind == .punctuation {
            let byte = bytes[Int(previous.start)]
            switch byte {
            case ASCII.equals, ASCII.comma, ASCII.dot, ASCII.openParen, ASCII.openBracket, ASCII.plus, ASCII.minus,
                ASCII.star, ASCII.ampersand, ASCII.pipe, ASCII.colon, ASCII.less:
                return false
            case ASCII.greater:
                // `->` ends a line only inside a signature.
                return !isPunct(index - 2, ASCII.minus)
            default:
                break
            }
        }
        let token = tokens[index]
        if token.kind == .punctuation {
            let byte = bytes[Int(token.start)]
            if byte == ASCII.equals || byte == ASCII.ampersand || byte == ASCII.pipe || byte == ASCII.plus
                || byte == ASCII.star || byte == ASCII.question
            {
                return false
            }
        }
        if previous.word == .try || previous.word == .await || previous.word == .return || previous.word == .as
            || previous.word == .is
        {
            return false
        }
        return true
    }

    /// Arguments of the call whose `(` is at `open`: each label token (or -1) and the token range of its value.
    func arguments(ofCallAt open: Int) -> [Argument] {
        guard isPunct(open, ASCII.openParen) || isPunct(open, ASCII.openBracket) else { return [] }
        let close = Int(matching[open])
        guard close > open else { return [] }
        var result: [Argument] = []
        var start = open + 1
        while start < close {
            var label = -1
            var valueStart = start
            if isIdentifier(start), isPunct(start + 1, ASCII.colon), !isPunct(start + 2, ASCII.colon) {
                label = start
                valueStart = start + 2
            }
            var end = valueStart
            while end < close, !isPunct(end, ASCII.comma) {
                let token = tokens[end]
                if token.kind == .punctuation, matching[end] > end { end = Int(matching[end]) }
                end += 1
            }
            if end > start { result.append(Argument(label: label, start: valueStart, end: min(end, close))) }
            start = end + 1
        }
        return result
    }

    /// The argument labels of the call whose `(` is at `open`, `_` for unlabelled ones.
    func labels(ofCallAt open: Int) -> [String] {
        arguments(ofCallAt: open).map { $0.label >= 0 ? text($0.label) : "_" }
    }
}

/// An argument of a call: its label token (`-1` when unlabelled) and the tokens `start..<end` of its value.
struct Argument: Sendable {
    var label: Int
    var start: Int
    var end: Int
}

/// A place in a source file, 1-based.
public struct SourceLocation: Sendable, Hashable, Comparable {
    public var file: String
    public var line: Int
    public var column: Int

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

extension SourceFile {
    /// Whether the token at `value` starts `.invalid`, `UIBackgroundTaskIdentifier.invalid` or Swift 4's
    /// `UIBackgroundTaskInvalid`, the value alone.
    func isInvalidTaskIdentifier(at value: Int) -> Bool {
        var end = value
        if isPunct(value, ASCII.dot), self.is(value + 1, "invalid") {
            end = value + 2
        } else if self.is(value, "UIBackgroundTaskIdentifier"), isPunct(value + 1, ASCII.dot),
            self.is(value + 2, "invalid")
        {
            end = value + 3
        } else if self.is(value, "UIBackgroundTaskInvalid") {
            end = value + 1
        } else {
            return false
        }
        return !isPunct(end, ASCII.dot) && !isPunct(end, ASCII.openParen)
    }
}
