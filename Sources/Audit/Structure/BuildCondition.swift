/// The value of an `#if` condition in the build that ships to a person's iPhone: a device build for iOS. `canImport`
/// of a module holds (the app links what it imports) unless the module exists only on other systems
/// (`FoundationNetworking` on Linux, `AppKit` on the Mac), `os(iOS)` holds and other systems do not, and neither a
/// simulator nor Mac Catalyst is the target; a custom flag (`DEBUG`), a compiler or language version is not known.
enum BuildCondition {
    /// `true` or `false` when the condition decides, `nil` when it depends on what is not known. Reads `!`, `&&`,
    /// `||` and parentheses; anything it cannot read is not known.
    static func value(of text: String) -> Bool? {
        var parser = Parser(text: Array(text.utf8))
        guard let value = parser.disjunction(), parser.atEnd else { return nil }
        return value.known
    }

    /// A value that may not be known; `&&` and `||` still decide when one side does (`false && x` is `false`).
    private struct Value {
        var known: Bool?

        static func && (lhs: Value, rhs: Value) -> Value {
            if lhs.known == false || rhs.known == false { return Value(known: false) }
            if lhs.known == true, rhs.known == true { return Value(known: true) }
            return Value(known: nil)
        }

        static func || (lhs: Value, rhs: Value) -> Value {
            if lhs.known == true || rhs.known == true { return Value(known: true) }
            if lhs.known == false, rhs.known == false { return Value(known: false) }
            return Value(known: nil)
        }
    }

    private struct Parser {
        /// Modules no iOS SDK has: Linux's and Windows' C libraries and Foundation parts, the Mac's AppKit.
        static let otherSystemsModules: Set<String> = [
            "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "WinSDK", "ucrt", "CRT", "Android", "Bionic",
            "WASILibc", "AppKit", "Cocoa",
        ]

        let text: [UInt8]
        var index = 0

        init(text: [UInt8]) {
            // A comment after the condition is not part of it.
            var end = text.count
            for offset in 0..<max(text.count - 1, 0) where text[offset] == UInt8(ascii: "/") {
                if text[offset + 1] == UInt8(ascii: "/") || text[offset + 1] == UInt8(ascii: "*") {
                    end = offset
                    break
                }
            }
            self.text = Array(text[..<end])
        }

        var atEnd: Bool {
            mutating get {
                skipSpaces()
                return index == text.count
            }
        }

        mutating func disjunction() -> Value? {
            guard var value = conjunction() else { return nil }
            while consume("||") {
                guard let next = conjunction() else { return nil }
                value = value || next
            }
            return value
        }

        mutating func conjunction() -> Value? {
            guard var value = unary() else { return nil }
            while consume("&&") {
                guard let next = unary() else { return nil }
                value = value && next
            }
            return value
        }

        mutating func unary() -> Value? {
            if consume("!") {
                guard let value = unary() else { return nil }
                return Value(known: value.known.map { !$0 })
            }
            if consume("(") {
                guard let value = disjunction(), consume(")") else { return nil }
                return value
            }
            guard let name = identifier() else { return nil }
            guard consume("(") else {
                // A flag set by the build (`DEBUG`), or a literal.
                if name == "true" { return Value(known: true) }
                if name == "false" { return Value(known: false) }
                return Value(known: nil)
            }
            guard let close = text[index...].firstIndex(of: UInt8(ascii: ")")) else { return nil }
            let argument = String(decoding: text[index..<close], as: UTF8.self).filter { !$0.isWhitespace }
            index = close + 1
            switch name {
            case "canImport": return Value(known: !Self.otherSystemsModules.contains(argument))
            case "os": return Value(known: argument == "iOS")
            case "targetEnvironment":
                return Value(known: argument == "simulator" || argument == "macCatalyst" ? false : nil)
            default: return Value(known: nil)
            }
        }

        private mutating func identifier() -> String? {
            skipSpaces()
            let start = index
            while index < text.count, text[index] == UInt8(ascii: "_") || isAlphanumeric(text[index]) { index += 1 }
            return index > start ? String(decoding: text[start..<index], as: UTF8.self) : nil
        }

        private func isAlphanumeric(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }

        private mutating func consume(_ token: String) -> Bool {
            skipSpaces()
            let bytes = Array(token.utf8)
            guard index + bytes.count <= text.count, text[index..<(index + bytes.count)].elementsEqual(bytes) else {
                return false
            }
            index += bytes.count
            return true
        }

        private mutating func skipSpaces() {
            while index < text.count,
                text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\t")
                    || text[index] == UInt8(ascii: "\r")
            {
                index += 1
            }
        }
    }
}
