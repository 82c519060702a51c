extension CommandSpec {
    /// Mistakes in the table itself, each as a sentence; empty for a well-formed spec. Checked by a
    /// test over every registered command rather than at run time: a bad table is a programmer
    /// error, and catching it in the test suite keeps startup free of the work.
    func problems(globals: [OptionSpec] = GlobalOptions.rootSpecs) -> [String] {
        var problems: [String] = []
        func isName(_ text: String) -> Bool {
            guard let first = text.first, first.isASCII, first.isLowercase else { return false }
            return text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
        }

        if !isName(name) {
            problems.append("command name '\(name)' is not lowercase letters, digits and '-'")
        }
        if abstract.isEmpty || abstract.contains("\n") {
            problems.append("\(name): the abstract must be one non-empty line")
        }

        var seen = Set(globals.map(\.name))
        var shorts = Set(globals.compactMap(\.short))
        for option in options {
            if !isName(option.name) {
                problems.append("\(name): '--\(option.name)' is not lowercase letters, digits and '-'")
            }
            if !seen.insert(option.name).inserted {
                problems.append("\(name): '--\(option.name)' is declared twice or shadows a global option")
            }
            if let short = option.short, !shorts.insert(short).inserted {
                problems.append("\(name): '-\(short)' is declared twice or shadows a global option")
            }
            if option.help.isEmpty {
                problems.append("\(name): '--\(option.name)' has no help")
            }
            if let value = option.defaultValue, let type = option.valueType, !type.accepts(value) {
                problems.append("\(name): the default of '--\(option.name)' is not \(type.expected)")
            }
            if option.isRequired, option.defaultValue != nil {
                problems.append("\(name): '--\(option.name)' is required and has a default")
            }
        }

        var positionalNames: Set<String> = []
        var previous: PositionalSpec.Arity?
        for positional in positionals {
            if !positionalNames.insert(positional.name).inserted {
                problems.append("\(name): <\(positional.name)> is declared twice")
            }
            if positional.help.isEmpty {
                problems.append("\(name): <\(positional.name)> has no help")
            }
            switch (previous, positional.arity) {
            case (.zeroOrMore?, _), (.oneOrMore?, _):
                problems.append("\(name): <\(positional.name)> follows a repeating argument")
            case (.optional?, .required), (.optional?, .oneOrMore):
                problems.append("\(name): required <\(positional.name)> follows an optional argument")
            default:
                break
            }
            previous = positional.arity
        }

        for example in examples where !example.command.hasPrefix("pipeline \(name)") {
            problems.append("\(name): the example '\(example.command)' does not run 'pipeline \(name)'")
        }
        return problems
    }
}
