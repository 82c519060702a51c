import Domain
import Foundation
import Scheduling

/// A command line matched against a `CommandSpec` and the global options: every value is present
/// because it was typed, came from the option's environment variable, or is its declared default,
/// and has already been checked against the option's type.
///
/// Reading a name the spec does not declare, or reading it with the wrong accessor, is a
/// programmer error and traps.
struct ParsedArguments: Sendable {
    private let options: [String: OptionSpec]
    private let values: [String: [String]]
    private let flags: Set<String>
    private let positionalNames: Set<String>
    private let positionalValues: [String: [String]]

    /// Matches `tokens` (argv after the command name) against `spec` plus `globals`; `environment`
    /// supplies values for options that declare a variable and were not typed.
    init(
        tokens: [Token], spec: CommandSpec, globals: [OptionSpec] = GlobalOptions.specs,
        environment: [String: String] = [:]
    ) throws(CLIError) {
        let declared = spec.options + globals
        options = Dictionary(declared.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var loose: [String] = []

        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            let option: OptionSpec
            var attached: String?
            switch token {
            case .terminator:
                continue
            case .argument(let text):
                loose.append(text)
                continue
            case .long(let name, let value):
                guard let match = declared.first(where: { $0.name == name }) else {
                    throw Self.unknown(token, name, declared)
                }
                option = match
                attached = value
            case .short(let name):
                guard let match = declared.first(where: { $0.short.map(String.init) == name }) else {
                    throw Self.unknown(token, name, declared)
                }
                option = match
            }

            if option.isFlag {
                guard attached == nil else { throw .unexpectedValue(option: "--" + option.name) }
                guard !flags.contains(option.name) else { throw .repeatedOption(option: option.synopsis) }
                flags.insert(option.name)
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else if index < tokens.count, case .argument(let next) = tokens[index] {
                value = next
                index += 1
            } else {
                throw .missingValue(option: option.synopsis)
            }
            guard values[option.name] == nil || option.isRepeatable else {
                throw .repeatedOption(option: option.synopsis)
            }
            try Self.check(value, for: option, origin: "'\(option.synopsis)'")
            values[option.name, default: []].append(value)
        }

        for option in declared where !option.isFlag && values[option.name] == nil {
            if let variable = option.environment, let value = environment[variable], !value.isEmpty {
                try Self.check(value, for: option, origin: variable)
                values[option.name] = [value]
            } else if let value = option.defaultValue {
                values[option.name] = [value]
            } else if option.isRequired {
                throw .missingOption(option: option.synopsis)
            }
        }

        self.values = values
        self.flags = flags
        positionalNames = Set(spec.positionals.map(\.name))
        positionalValues = try Self.assign(loose, to: spec.positionals)
    }

    private static func unknown(_ token: Token, _ name: String, _ declared: [OptionSpec]) -> CLIError {
        // `-user` and `--usr` both suggest `--user`: compare against long names without dashes.
        let suggestion = Suggestion.closest(to: name, among: declared.map(\.name))
        return .unknownOption(token.spelling, suggestion: suggestion.map { "--" + $0 })
    }

    private static func check(_ value: String, for option: OptionSpec, origin: String) throws(CLIError) {
        guard let type = option.valueType, !type.accepts(value) else { return }
        throw .invalidValue(value, origin: origin, expected: type.expected)
    }

    /// Hands out positional arguments in declaration order; the spec puts optional ones after
    /// required ones and a repeating one last, so a greedy pass is exact.
    private static func assign(
        _ arguments: [String], to specs: [PositionalSpec]
    ) throws(CLIError) -> [String: [String]] {
        var remaining = arguments[...]
        var assigned: [String: [String]] = [:]
        for spec in specs {
            switch spec.arity {
            case .required, .oneOrMore:
                guard !remaining.isEmpty else { throw .missingArgument(spec.synopsis) }
            case .optional, .zeroOrMore:
                break
            }
            if spec.isRepeating {
                assigned[spec.name] = Array(remaining)
                remaining = []
            } else if let first = remaining.popFirst() {
                assigned[spec.name] = [first]
            }
        }
        if let extra = remaining.first {
            throw .unexpectedArgument(extra)
        }
        return assigned
    }

    // MARK: - Reading values

    private func declared(_ name: String, _ accepts: (OptionSpec.ValueType?) -> Bool) -> OptionSpec {
        guard let option = options[name] else {
            preconditionFailure("'--\(name)' is not declared in the command's spec")
        }
        precondition(accepts(option.valueType), "'--\(name)' is read with an accessor that does not match its type")
        return option
    }

    /// Whether the flag was given.
    func flag(_ name: String) -> Bool {
        _ = declared(name) { $0 == nil }
        return flags.contains(name)
    }

    /// The value of a `.text`, `.choice` (or any) option: typed, from the environment, or the default.
    func string(_ name: String) -> String? {
        _ = declared(name) { $0 != nil }
        return values[name]?.last
    }

    /// Every value of a repeatable option, in the order given.
    func strings(_ name: String) -> [String] {
        _ = declared(name) { $0 != nil }
        return values[name] ?? []
    }

    /// The value of an `.integer` option.
    func int(_ name: String) -> Int? {
        _ = declared(name) {
            if case .integer = $0 { true } else { false }
        }
        return values[name]?.last.map { Int($0)! }
    }

    /// The value of a `.day` option.
    func day(_ name: String) -> Day? { value(name, .day, Day.init) }

    /// The value of an `.instant` option.
    func date(_ name: String) -> Date? { value(name, .instant, ISO8601Instant.date(from:)) }

    /// The value of a `.user` option.
    func user(_ name: String) -> UserID? { value(name, .user, UserID.init) }

    /// The value of a `.task` option.
    func task(_ name: String) -> TaskIdentifier? { value(name, .task, TaskIdentifier.init) }

    /// The value of a `.duration` option, in seconds.
    func duration(_ name: String) -> TimeInterval? { value(name, .duration, OptionSpec.ValueType.seconds(in:)) }

    /// The value of an option of `type`, read from its text with `read` (which the check while parsing has
    /// already seen succeed).
    private func value<T>(_ name: String, _ type: OptionSpec.ValueType, _ read: (String) -> T?) -> T? {
        _ = declared(name) { $0 == type }
        return values[name]?.last.map { read($0)! }
    }

    /// The value of a `.required` or `.optional` positional argument.
    func positional(_ name: String) -> String? {
        positionals(name).first
    }

    /// The values of a repeating positional argument (or the one value of a single one).
    func positionals(_ name: String) -> [String] {
        precondition(positionalNames.contains(name), "<\(name)> is not declared in the command's spec")
        return positionalValues[name] ?? []
    }
}
