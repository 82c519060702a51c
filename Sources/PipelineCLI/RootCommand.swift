/// `pipeline` itself, before a command is chosen: its description, its version, and the split of
/// argv into root options, the command name and the command's own arguments.
enum RootCommand {
    static let version = "0.1.0"

    static let abstract =
        "pipeline runs a health-logging app's personalization loop on a server: it keeps one "
        + "DailyLog row per user per day, retrains a small personal model per user, and turns it into "
        + "predictions and reminders, with periodic work run by a durable scheduler launched from cron."

    /// argv, split at the command name.
    struct Split: Sendable {
        /// The first positional argument; `nil` when there is none.
        var commandName: String?
        /// Every token but the command name: global options typed before it, then the command's.
        var commandTokens: [Token]
        var wantsHelp: Bool
        var wantsVersion: Bool
    }

    /// Finds the command name in `tokens`. Before it only root options may appear (the global
    /// options and `--version`); a value-taking one consumes the argument after it, so in
    /// `pipeline --db x.sqlite status` the command is `status`.
    static func split(_ tokens: [Token]) throws(CLIError) -> Split {
        var split = Split(commandName: nil, commandTokens: [], wantsHelp: false, wantsVersion: false)
        var index = 0
        while index < tokens.count, split.commandName == nil {
            let token = tokens[index]
            index += 1
            switch token {
            case .argument(let name):
                split.commandName = name
            case .terminator:
                continue
            case _ where token.isHelp:
                split.wantsHelp = true
            case .long("version", _):
                split.wantsVersion = true
            case .long(let name, let value):
                guard let option = GlobalOptions.specs.first(where: { $0.name == name }) else {
                    let suggestion = Suggestion.closest(to: name, among: GlobalOptions.rootSpecs.map(\.name))
                    throw .unknownOption(token.spelling, suggestion: suggestion.map { "--" + $0 })
                }
                split.commandTokens.append(token)
                if !option.isFlag, value == nil, index < tokens.count, case .argument = tokens[index] {
                    split.commandTokens.append(tokens[index])
                    index += 1
                }
            case .short(let name):
                let suggestion = Suggestion.closest(to: name, among: GlobalOptions.rootSpecs.map(\.name))
                throw .unknownOption(token.spelling, suggestion: suggestion.map { "--" + $0 })
            }
        }
        split.commandTokens += tokens[index...]
        return split
    }
}
