/// Matches brackets and builds the scope tree of a token stream in one forward pass.
///
/// The construct that opens a `{` is known from what came before it: a pending declaration or statement
/// keyword at the same bracket depth (`func`, `var name: T`, `if`, `guard … else` …) opens that construct;
/// any other `{` is a closure, and the tokens before it say which call it is an argument of.
struct StructureBuilder {
    struct Result {
        var matching: [Int32]
        var scopes: [Scope]
        var scopeOf: [Int32]
    }

    private struct Pending {
        var kind: Scope.Kind
        var head: Int
        var name: Int
        var control: Word
        var depth: Int
    }

    private let tokens: [Token]
    private let bytes: UnsafeBufferPointer<UInt8>
    private var matching: [Int32]
    private var scopes: [Scope]
    private var scopeOf: [Int32]
    private var brackets: [Int32] = []
    private var stack: [Int32] = [0]
    private var pending: Pending?
    /// For each open brace, the declaration still waiting for its body when the brace opened (a closure in a
    /// default argument sits inside a function's signature); restored when the brace closes.
    private var savedPending: [Pending?] = []

    static func build(tokens: [Token], bytes: UnsafeBufferPointer<UInt8>) -> Result {
        var builder = StructureBuilder(tokens: tokens, bytes: bytes)
        builder.run()
        return Result(matching: builder.matching, scopes: builder.scopes, scopeOf: builder.scopeOf)
    }

    private init(tokens: [Token], bytes: UnsafeBufferPointer<UInt8>) {
        self.tokens = tokens
        self.bytes = bytes
        matching = Array(repeating: -1, count: tokens.count)
        scopeOf = Array(repeating: 0, count: tokens.count)
        scopes = [Scope(kind: .file, parent: -1, open: -1, close: Int32(tokens.count))]
        scopes.reserveCapacity(tokens.count / 16 + 4)
    }

    @inline(__always)
    private func byte(_ index: Int) -> UInt8 {
        tokens[index].kind == .punctuation ? bytes[Int(tokens[index].start)] : 0
    }

    @inline(__always)
    private func isIdentifier(_ index: Int) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].kind == .identifier
    }

    private mutating func run() {
        for index in tokens.indices {
            scopeOf[index] = stack[stack.count - 1]
            let token = tokens[index]
            switch token.kind {
            case .punctuation:
                punctuation(at: index)
            case .identifier:
                if let current = pending, current.kind == .property, current.depth == brackets.count,
                    index > current.head + 1, token.line > tokens[index - 1].line
                {
                    // A name starting a new line at the declaration's depth begins the next statement: the
                    // property had no body.
                    pending = nil
                }
                if token.word != .none { keyword(token.word, at: index) }
            default:
                break
            }
        }
        let count = Int32(tokens.count)
        for scope in stack.dropFirst() { scopes[Int(scope)].close = count }
    }

    private mutating func punctuation(at index: Int) {
        switch byte(index) {
        case ASCII.openParen, ASCII.openBracket:
            brackets.append(Int32(index))
        case ASCII.closeParen, ASCII.closeBracket:
            let opener: UInt8 = byte(index) == ASCII.closeParen ? ASCII.openParen : ASCII.openBracket
            if let top = brackets.last, byte(Int(top)) == opener {
                brackets.removeLast()
                matching[Int(top)] = Int32(index)
                matching[index] = top
            }
        case ASCII.openBrace:
            openBrace(at: index)
        case ASCII.closeBrace:
            closeBrace(at: index)
        case ASCII.equals:
            if let current = pending, current.kind == .property, current.depth == brackets.count {
                pending = nil
            }
        default:
            break
        }
    }

    private mutating func keyword(_ word: Word, at index: Int) {
        let afterDot = index > 0 && byte(index - 1) == ASCII.dot
        // `for type: PKPushType`, `.default`: an argument label or a member, not a keyword.
        if afterDot || (index + 1 < tokens.count && byte(index + 1) == ASCII.colon) { return }
        // Inside a declaration's parentheses, words are labels, types and default values.
        if let current = pending, brackets.count > current.depth { return }
        switch word {
        case .func:
            setPending(.function, head: index, name: index + 1)
        case .`init`, .deinit, .subscript:
            setPending(.function, head: index, name: index)
        case .class, .struct, .enum, .extension, .protocol, .actor:
            if isTypeDeclaration(word, at: index) { setPending(.type, head: index, name: index + 1) }
        case .let:
            if pending?.kind != .control { pending = nil }
        case .var:
            // Only `var name: Type {` can open a body; `case let x:` and `(var a, …)` are patterns.
            guard pending?.kind != .control else { break }
            pending = nil
            let previousIsPattern =
                index > 0
                && (tokens[index - 1].word == .case || byte(index - 1) == ASCII.openParen
                    || byte(index - 1) == ASCII.comma)
            if !previousIsPattern, isIdentifier(index + 1), index + 2 < tokens.count, byte(index + 2) == ASCII.colon {
                setPending(.property, head: index, name: index + 1)
            }
        case .if, .guard, .for, .switch, .do, .catch, .defer, .repeat, .else:
            setPending(.control, head: index, name: index, control: word)
        case .while:
            if !closesRepeat(before: index) { setPending(.control, head: index, name: index, control: word) }
        case .get, .set, .willSet, .didSet:
            let current = scopes[Int(stack[stack.count - 1])]
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            let opensBody =
                next.map {
                    let nextByte = $0.kind == .punctuation ? bytes[Int($0.start)] : 0
                    return nextByte == ASCII.openBrace || nextByte == ASCII.openParen || $0.word == .async
                        || $0.word == .throws
                } ?? false
            if current.kind == .property || current.kind == .accessor, opensBody {
                setPending(.accessor, head: index, name: index)
            }
        default:
            break
        }
    }

    private mutating func setPending(_ kind: Scope.Kind, head: Int, name: Int, control: Word = .none) {
        pending = Pending(kind: kind, head: head, name: name, control: control, depth: brackets.count)
    }

    /// `class func`, `class var` and friends use `class` as a modifier; `actor` is only a keyword before a name.
    private func isTypeDeclaration(_ word: Word, at index: Int) -> Bool {
        guard isIdentifier(index + 1) else { return false }
        let next = tokens[index + 1]
        if next.word != .none { return false }
        if word == .class || word == .actor {
            let start = Int(next.start)
            let name = bytes[start..<Int(next.end)]
            for modifier in Self.modifiers where name.elementsEqual(modifier.utf8) { return false }
        }
        if word == .actor {
            guard index + 2 < tokens.count else { return false }
            let after = byte(index + 2)
            return after == ASCII.openBrace || after == ASCII.colon || after == ASCII.less
                || tokens[index + 2].word == .where
        }
        return true
    }

    private static let modifiers = [
        "override", "final", "private", "fileprivate", "internal", "public", "open", "required", "convenience",
        "dynamic", "nonisolated", "isolated", "mutating",
    ]

    /// Whether the `while` at `index` ends a `repeat { … } while` rather than starting a loop.
    private func closesRepeat(before index: Int) -> Bool {
        guard index > 0, byte(index - 1) == ASCII.closeBrace else { return false }
        let scope = scopes[Int(scopeOf[index - 1])]
        return scope.kind == .control && scope.control == .repeat
    }

    private mutating func openBrace(at index: Int) {
        var scope = Scope(kind: .closure, parent: stack[stack.count - 1], open: Int32(index), close: -1)
        if let current = pending, current.depth == brackets.count {
            scope.kind = current.kind
            scope.head = Int32(current.head)
            scope.name = Int32(current.name)
            scope.control = current.control
            savedPending.append(nil)
        } else {
            describeClosure(&scope, at: index)
            savedPending.append(pending)
        }
        pending = nil
        let scopeIndex = Int32(scopes.count)
        scopes.append(scope)
        stack.append(scopeIndex)
        brackets.append(Int32(index))
        scopeOf[index] = scopeIndex
    }

    private mutating func closeBrace(at index: Int) {
        // Unclosed `(` or `[` inside the braces are dropped, so one typo does not shift every later scope.
        while let top = brackets.last, byte(Int(top)) != ASCII.openBrace { brackets.removeLast() }
        guard let open = brackets.popLast(), stack.count > 1 else {
            pending = nil
            return
        }
        pending = savedPending.popLast() ?? nil
        matching[Int(open)] = Int32(index)
        matching[index] = open
        let scopeIndex = stack.removeLast()
        scopes[Int(scopeIndex)].close = Int32(index)
        scopeOf[index] = scopeIndex
    }

    /// Fills in which call a closure belongs to, its argument label, or what it is assigned to.
    private func describeClosure(_ scope: inout Scope, at index: Int) {
        guard index > 0 else { return }
        let previous = index - 1
        let previousByte = byte(previous)
        if previousByte == ASCII.closeParen {
            // `name(…) { … }`: a trailing closure.
            let open = Int(matching[previous])
            if open > 0, isIdentifier(open - 1) { scope.name = Int32(open - 1) }
        } else if isIdentifier(previous) {
            let word = tokens[previous].word
            if word == .none || !word.isReserved { scope.name = Int32(previous) }
        } else if previousByte == ASCII.colon {
            if isIdentifier(index - 2) { scope.label = Int32(index - 2) }
            if index >= 3, byte(index - 3) == ASCII.closeBrace {
                // `} label: { … }`: a further trailing closure of the same call.
                scope.name = scopes[Int(scopeOf[index - 3])].name
            } else {
                scope.name = Int32(calleeOfInnermostParenthesis())
            }
        } else if previousByte == ASCII.openParen || previousByte == ASCII.comma {
            scope.name = Int32(calleeOfInnermostParenthesis())
        } else if previousByte == ASCII.equals, index >= 2, isIdentifier(index - 2) {
            scope.assignee = Int32(index - 2)
        }
    }

    private func calleeOfInnermostParenthesis() -> Int {
        guard let top = brackets.last, byte(Int(top)) == ASCII.openParen else { return -1 }
        let candidate = Int(top) - 1
        return isIdentifier(candidate) ? candidate : -1
    }
}
