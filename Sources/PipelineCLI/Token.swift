/// One command-line argument, classified before any option table is consulted.
///
/// Whether `--name value` takes `value` depends on the option, so the tokenizer leaves `value` as
/// an `.argument`; the matcher consumes it.
enum Token: Hashable, Sendable {
    /// `--name` or `--name=value`.
    case long(String, value: String?)
    /// `-h`; `name` is everything after the dash.
    case short(String)
    /// A positional argument, including `-` (standard input), negative numbers and everything after
    /// `--`.
    case argument(String)
    /// `--`: the arguments after it are positional even when they start with a dash.
    case terminator

    /// Splits `arguments` (argv without the program name) into tokens.
    static func tokenize(_ arguments: some Sequence<String>) -> [Token] {
        var tokens: [Token] = []
        var afterTerminator = false
        for argument in arguments {
            if afterTerminator {
                tokens.append(.argument(argument))
            } else if argument == "--" {
                tokens.append(.terminator)
                afterTerminator = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    tokens.append(.long(String(body[..<equals]), value: String(body[body.index(after: equals)...])))
                } else {
                    tokens.append(.long(String(body), value: nil))
                }
            } else if argument.hasPrefix("-"), argument.count > 1, !Token.isNumber(argument.dropFirst()) {
                tokens.append(.short(String(argument.dropFirst())))
            } else {
                tokens.append(.argument(argument))
            }
        }
        return tokens
    }

    /// `-5` and `-0.5` are values, not short options: no option has a digit for its name.
    private static func isNumber(_ text: Substring) -> Bool {
        guard let first = text.first else { return false }
        return first.isASCII && (first.isNumber || first == ".")
    }

    /// The token as the user typed it, for error messages.
    var spelling: String {
        switch self {
        case .long(let name, let value): "--" + name + (value.map { "=" + $0 } ?? "")
        case .short(let name): "-" + name
        case .argument(let text): text
        case .terminator: "--"
        }
    }

    /// `--help` or `-h`.
    var isHelp: Bool {
        switch self {
        case .long("help", _), .short("h"): true
        default: false
        }
    }
}
