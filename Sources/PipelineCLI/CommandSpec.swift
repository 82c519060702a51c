/// Everything `pipeline` knows about one command's command line: parsing, validation and `--help`
/// all read this one table, so the help text cannot drift from what is accepted.
struct CommandSpec: Sendable {
    /// The word after `pipeline`: lowercase letters, digits and `-`.
    let name: String
    /// One line, shown in `pipeline --help` next to the name; a sentence ending with a period.
    let abstract: String
    /// Paragraphs shown in the command's help after the usage line; blank lines separate them,
    /// lines that start with a space are printed as written.
    var discussion = ""
    var options: [OptionSpec] = []
    /// In order; optional ones after required ones, a repeating one last.
    var positionals: [PositionalSpec] = []
    var examples: [Example] = []
}

/// One `--name` option of a command (or of every command, see `GlobalOptions`).
struct OptionSpec: Sendable {
    /// What an option's value must look like; checked while parsing, before the command runs.
    enum ValueType: Sendable, Hashable {
        /// Any non-empty text.
        case text
        /// A decimal integer, within `range` when given.
        case integer(ClosedRange<Int>?)
        /// Exactly one of the words.
        case choice([String])
        /// A calendar date `YYYY-MM-DD` (`Domain.Day`).
        case day
        /// An instant in RFC 3339 form (`ISO8601Instant`).
        case instant
        /// A user id (`Domain.UserID`).
        case user
        /// A task identifier (`Scheduling.TaskIdentifier`), e.g. `ml-retrain`.
        case task
        /// A positive duration, `90`, `90s`, `15m`, `15min` or `1.5h` (`OptionSpec.ValueType.seconds(in:)`).
        case duration
    }

    /// The long name without dashes: `user` for `--user`.
    let name: String
    /// A one-letter short name (`-h`); only where the table declares one.
    let short: Character?
    /// `nil` for a flag, which takes no value.
    let valueType: ValueType?
    /// Shown as `<valueName>` in help and errors.
    let valueName: String
    let help: String
    /// Used when the option is absent (after `environment`); shown in help.
    let defaultValue: String?
    /// An environment variable consulted when the option is absent: flag > environment > default.
    let environment: String?
    let isRequired: Bool
    /// Whether the option may be given several times (read with `ParsedArguments.strings`).
    let isRepeatable: Bool

    /// A switch that is either present or not (`--force`).
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueType: nil, valueName: "", help: help, defaultValue: nil, environment: nil,
            isRequired: false, isRepeatable: false)
    }

    /// An option that takes a value (`--user alice`, `--user=alice`).
    static func option(
        _ name: String, _ type: ValueType = .text, valueName: String? = nil, short: Character? = nil, help: String,
        default defaultValue: String? = nil, environment: String? = nil, required: Bool = false,
        repeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueType: type, valueName: valueName ?? OptionSpec.valueName(for: type, name),
            help: help, defaultValue: defaultValue, environment: environment, isRequired: required,
            isRepeatable: repeatable)
    }

    private static func valueName(for type: ValueType, _ name: String) -> String {
        switch type {
        case .text: name
        case .integer: "n"
        case .choice(let words): words.joined(separator: "|")
        case .day: "day"
        case .instant: "instant"
        case .user: "user"
        case .task: "task"
        case .duration: "duration"
        }
    }

    var isFlag: Bool { valueType == nil }

    /// `--user <user>`, `-h, --help`, as in help and error messages.
    var synopsis: String {
        "--" + name + (isFlag ? "" : " <\(valueName)>")
    }
}

/// A positional argument of a command.
struct PositionalSpec: Sendable {
    enum Arity: Sendable, Hashable {
        case required
        case optional
        /// Any number, including none.
        case zeroOrMore
        case oneOrMore
    }

    let name: String
    let help: String
    let arity: Arity

    init(_ name: String, help: String, arity: Arity = .required) {
        self.name = name
        self.help = help
        self.arity = arity
    }

    var isRepeating: Bool { arity == .zeroOrMore || arity == .oneOrMore }

    /// An operator's `[<action>] [<id> ...]`: one of `Action`'s words, or none to list, and the ids the action
    /// takes (read with `CommandContext.action(_:)` and `ids(of:)`).
    static func action<Action: CaseIterable & RawRepresentable<String>>(_: Action.Type, ids help: String)
        -> [PositionalSpec]
    {
        [
            PositionalSpec("action", help: Action.words + "; none to list.", arity: .optional),
            PositionalSpec("id", help: help, arity: .zeroOrMore),
        ]
    }

    /// `<file>`, `[<file>]`, `<path> ...`, as in the usage line.
    var synopsis: String {
        switch arity {
        case .required: "<\(name)>"
        case .optional: "[<\(name)>]"
        case .zeroOrMore: "[<\(name)> ...]"
        case .oneOrMore: "<\(name)> ..."
        }
    }
}

/// A command line shown under "Examples:" in help, with what it does.
struct Example: Sendable {
    let summary: String
    let command: String

    init(_ summary: String, _ command: String) {
        self.summary = summary
        self.command = command
    }
}
