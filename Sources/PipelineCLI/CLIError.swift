import Domain

/// What can go wrong between argv and a command's first statement, and the input files a command
/// opens. Every case but the two I/O ones is a usage error (status 64), reported with the usage
/// line of the command.
enum CLIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `pipeline` was run without a command.
    case missingCommand
    case unknownCommand(String, suggestion: String?)
    /// `option` as typed (`--usr`, `-x`); `suggestion` is the closest declared option, spelled out.
    case unknownOption(String, suggestion: String?)
    /// `option` is the option's synopsis, `--user <user>`.
    case missingValue(option: String)
    case unexpectedValue(option: String)
    case repeatedOption(option: String)
    case missingOption(option: String)
    /// `origin` names where the value came from: an option's synopsis or an environment variable.
    case invalidValue(String, origin: String, expected: String)
    /// `argument` is the positional's synopsis, `<file>`.
    case missingArgument(String)
    case unexpectedArgument(String)
    /// A command's own check of its arguments, e.g. "--from must not be after --to".
    case usage(String)
    case cannotOpen(path: String, reason: String)
    case cannotRead(reason: String)

    var description: String {
        switch self {
        case .missingCommand:
            "no command given"
        case .unknownCommand(let name, let suggestion):
            "unknown command '\(Self.shown(name))'." + Self.didYouMean(suggestion)
        case .unknownOption(let option, let suggestion):
            "unknown option '\(Self.shown(option))'." + Self.didYouMean(suggestion)
        case .missingValue(let option):
            "missing value for '\(Self.shown(option))'"
        case .unexpectedValue(let option):
            "'\(Self.shown(option))' does not take a value"
        case .repeatedOption(let option):
            "'\(Self.shown(option))' may be given only once"
        case .missingOption(let option):
            "missing '\(option)'"
        case .invalidValue(let value, let origin, let expected):
            "invalid value '\(Self.shown(value))' for \(origin): expected \(expected)"
        case .missingArgument(let argument):
            "missing argument '\(argument)'"
        case .unexpectedArgument(let argument):
            "unexpected argument '\(Self.shown(argument))'"
        case .usage(let message):
            message
        case .cannotOpen(let path, let reason):
            "cannot open '\(Self.shown(path, limit: 200))': \(reason)"
        case .cannotRead(let reason):
            "cannot read the input: \(reason)"
        }
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " Did you mean '\($0)'?" } ?? ""
    }

    /// A piece of the command line as it may be printed: control characters escaped, cut short, so
    /// that an argument cannot forge lines or send escape sequences to the terminal.
    static func shown(_ text: String, limit: Int = PrintableExcerpt.defaultLimit) -> String {
        PrintableExcerpt.of(text, limit: limit)
    }
}

extension CLIError: CLIReportableError {
    var exitStatus: ExitStatus {
        switch self {
        case .cannotOpen, .cannotRead: .failure
        default: .usage
        }
    }

    var message: String { description }
}

/// Not failures: requests that end the run early with their answer on stdout and status 0, like
/// swift-argument-parser's `CleanExit`. Thrown so that the one error-mapping function decides every
/// stream and status.
enum CleanExit: Error, Sendable {
    /// Help for one command, or the root help when `nil`.
    case help(CommandSpec?)
    case version
}
