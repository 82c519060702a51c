/// Help and usage text, generated from the same `CommandSpec` tables the parser reads, so that
/// `--help` describes exactly what is accepted. Lines are wrapped at 80 columns.
enum HelpText {
    static let width = 80
    /// The widest option or argument name that still shares a line with its help.
    private static let maximumNameWidth = 26

    /// `pipeline <command> --help`.
    static func command(_ spec: CommandSpec) -> String {
        var sections = [spec.abstract, usage(spec)]
        if !spec.discussion.isEmpty {
            sections.append(paragraphs(spec.discussion))
        }
        let arguments = spec.positionals.map { ($0.synopsis, $0.help) }
        let options = spec.options.map(row)
        let globals = GlobalOptions.specs.map(row)
        let column = nameColumn(arguments + options + globals)
        if !arguments.isEmpty {
            sections.append(table("Arguments:", arguments, column: column))
        }
        if !options.isEmpty {
            sections.append(table("Options:", options, column: column))
        }
        sections.append(table("Global options:", globals, column: column))
        if !spec.examples.isEmpty {
            let lines = spec.examples.map { example in
                wrap(example.summary + ":", indent: 2) + "\n" + "    " + example.command
            }
            sections.append("Examples:\n" + lines.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `pipeline --help`: every registered command with its abstract.
    static func root(_ commands: [CommandSpec]) -> String {
        let rows = commands.map { ($0.name, $0.abstract) }
        let globals = GlobalOptions.rootSpecs.map(row)
        let column = nameColumn(rows + globals)
        return [
            wrap(RootCommand.abstract, indent: 0),
            usage(nil),
            table("Commands:", rows, column: column),
            table("Global options:", globals, column: column),
            table(
                "Exit status:",
                [
                    ("0", "done"), ("1", "failed (the message says why)"), ("64", "the command line is wrong"),
                    ("65", "bad input (each bad line named; the others stored)"),
                    ("74", "the database could not be written"),
                    ("75", "temporary (a server down, a lock held): the next launch tries again"),
                    ("78", "configuration (a password, role, database or path): change what the message says"),
                ], column: column),
            "See 'pipeline help <command>' for a command's options and examples.",
        ].joined(separator: "\n\n") + "\n"
    }

    /// The usage line of a command, or of `pipeline` itself when `spec` is `nil`.
    static func usage(_ spec: CommandSpec?) -> String {
        guard let spec else { return "Usage: pipeline <command> [<options>] [<arguments>]" }
        let options = spec.options.map { option in
            let synopsis = option.synopsis + (option.isRepeatable ? " ..." : "")
            return option.isRequired ? synopsis : "[\(synopsis)]"
        }
        let prefix = "Usage: pipeline \(spec.name)"
        let words = [prefix] + options + spec.positionals.map(\.synopsis)
        // Wrap between whole synopses, never inside `[--user <user>]`.
        let indent = String(repeating: " ", count: prefix.count < 40 ? prefix.count + 1 : 8)
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = indent + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The option's names and its help with its default and environment variable.
    private static func row(_ option: OptionSpec) -> (String, String) {
        let names = (option.short.map { "-\($0), " } ?? "") + option.synopsis
        var notes: [String] = []
        if let value = option.defaultValue {
            notes.append("default: \(value)")
        }
        if let variable = option.environment {
            notes.append("env: \(variable)")
        }
        if option.isRepeatable {
            notes.append("may be repeated")
        }
        return (names, notes.isEmpty ? option.help : "\(option.help) (\(notes.joined(separator: "; ")))")
    }

    private static func nameColumn(_ rows: [(String, String)]) -> Int {
        2 + min(rows.map(\.0.count).max() ?? 0, maximumNameWidth) + 2
    }

    private static func table(_ title: String, _ rows: [(String, String)], column: Int) -> String {
        var lines = [title]
        for (name, help) in rows {
            let start = "  " + name
            if start.count + 2 <= column {
                let padded = start + String(repeating: " ", count: column - start.count)
                lines.append(wrap(help, indent: column, firstLine: padded))
            } else {
                lines.append(start)
                lines.append(wrap(help, indent: column))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Blank-line-separated paragraphs, each wrapped; a line starting with a space is kept as written.
    private static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true).map { paragraph in
            let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.contains(where: { $0.hasPrefix(" ") }) {
                return lines.joined(separator: "\n")
            }
            return wrap(lines.joined(separator: " "), indent: 0)
        }.joined(separator: "\n\n")
    }

    /// Greedy word wrap to `width`; continuation lines start at column `indent`. A word longer than
    /// a line stays whole on its own line.
    static func wrap(_ text: String, indent: Int, firstLine: String? = nil) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = firstLine ?? margin
        var lineHasWord = false
        for word in text.split(separator: " ") {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = margin
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
