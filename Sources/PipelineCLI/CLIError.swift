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
            "unknown command '\(name)'." + Self.didYouMean(suggestion)
        case .unknownOption(let option, let suggestion):
            "unknown option '\(option)'." + Self.didYouMean(suggestion)
        case .missingValue(let option):
            "missing value for '\(option)'"
        case .unexpectedValue(let option):
            "'\(option)' does not take a value"
        case .repeatedOption(let option):
            "'\(option)' may be given only once"
        case .missingOption(let option):
            "missing '\(option)'"
        case .invalidValue(let value, let origin, let expected):
            "invalid value '\(value)' for \(origin): expected \(expected)"
        case .missingArgument(let argument):
            "missing argument '\(argument)'"
        case .unexpectedArgument(let argument):
            "unexpected argument '\(argument)'"
        case .usage(let message):
            message
        case .cannotOpen(let path, let reason):
            "cannot open '\(path)': \(reason)"
        case .cannotRead(let reason):
            "cannot read the input: \(reason)"
        }
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " Did you mean '\($0)'?" } ?? ""
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
