import Foundation
import Testing

@testable import PipelineCLI

@Suite("Help generated from the table")
struct HelpTextTests {
    let help = HelpText.command(ProbeCommand.spec)
    /// The help with every run of spaces and newlines made one space, so that a check does not
    /// depend on where a line was wrapped.
    var flatHelp: String { flattened(help) }

    @Test("a command's help lists every option, argument and global option of its spec")
    func listsEverything() {
        for option in ProbeCommand.spec.options + GlobalOptions.specs {
            #expect(help.contains(option.synopsis), "missing \(option.synopsis)")
            #expect(flatHelp.contains(option.help), "missing the help of \(option.synopsis)")
        }
        #expect(help.contains("<file>"))
        #expect(help.contains(ProbeCommand.spec.positionals[0].help))
        #expect(!help.contains("--version"), "--version is accepted only before a command")
    }

    @Test("help shows defaults, environment variables, repeatability and short names")
    func annotations() {
        #expect(flatHelp.contains("How many fits run at once. (default: 2)"))
        #expect(help.contains("--format <jsonl|csv>"))
        #expect(help.contains("(env: PROBE_LABEL)"))
        #expect(flatHelp.contains("An outbox message to acknowledge. (may be repeated)"))
        #expect(help.contains("-f, --force"))
        #expect(help.contains("-h, --help"))
        #expect(
            flatHelp.contains(
                "or a postgresql:// URL (libpq's; PGHOST, PGUSER, PGPASSFILE… apply). (default: ./pipeline.sqlite; env: PIPELINE_DB)"
            ))
    }

    @Test("help has the abstract, the usage line, the discussion and the examples, in that order")
    func layout() throws {
        let usage = try #require(help.range(of: "Usage: pipeline probe --user <user>"))
        let abstract = try #require(help.range(of: ProbeCommand.spec.abstract))
        let discussion = try #require(help.range(of: "Reads every kind of option"))
        let examples = try #require(
            help.range(of: "Examples:\n  Probe alice on standard input:\n    pipeline probe --user alice -"))
        #expect(abstract.lowerBound < usage.lowerBound)
        #expect(usage.lowerBound < discussion.lowerBound)
        #expect(discussion.lowerBound < examples.lowerBound)
        #expect(help.contains("\n  pipeline probe --user alice\n"), "an indented discussion line is kept as written")
    }

    @Test("the usage line marks optional options and arguments, and required ones plainly")
    func usageLine() {
        let usage = HelpText.usage(ProbeCommand.spec)
        #expect(usage.hasPrefix("Usage: pipeline probe --user <user> [--jobs <n>] [--format <jsonl|csv>]"))
        #expect(usage.contains("[--ack <id> ...]"))
        #expect(usage.contains("[--force]"))
        #expect(usage.hasSuffix("[<file>]"))
    }

    @Test("no line of any help text is wider than 80 columns")
    func width() {
        let texts =
            [help, HelpText.root(testRegistry.specs), HelpText.usage(ProbeCommand.spec)]
            + CommandRegistry.standard.specs.map(HelpText.command)
        for text in texts {
            for line in text.split(separator: "\n") {
                #expect(line.count <= 80, "too wide: \(line)")
            }
        }
    }

    @Test("long text wraps between words and continues at the help column")
    func wrapping() {
        let text = HelpText.wrap(String(repeating: "word ", count: 40), indent: 10)
        let lines = text.split(separator: "\n")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.hasPrefix(String(repeating: " ", count: 10) + "word") })
        #expect(lines.allSatisfy { $0.count <= 80 && !$0.hasSuffix(" ") })
    }

    @Test("the root help lists every command with its abstract, and --version")
    func root() {
        let root = HelpText.root(testRegistry.specs)
        for spec in testRegistry.specs {
            #expect(root.contains("  \(spec.name) "), "missing \(spec.name)")
            #expect(flattened(root).contains(spec.abstract))
        }
        #expect(root.contains("--version"))
        #expect(root.contains("Usage: pipeline <command>"))
    }
}

/// `text` with every run of whitespace replaced by one space.
func flattened(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
}
