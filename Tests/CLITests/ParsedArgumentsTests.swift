import Domain
import Testing

@testable import PipelineCLI

@Suite("Matching tokens against a command's table")
struct ParsedArgumentsTests {
    private func parse(_ arguments: [String], environment: [String: String] = [:]) throws(CLIError) -> ParsedArguments {
        try ParsedArguments(tokens: Token.tokenize(arguments), spec: ProbeCommand.spec, environment: environment)
    }

    private func error(_ arguments: [String], environment: [String: String] = [:]) -> CLIError? {
        do {
            _ = try parse(arguments, environment: environment)
            return nil
        } catch {
            return error
        }
    }

    @Test("values arrive typed, in both --name value and --name=value forms")
    func typedValues() throws {
        let parsed = try parse([
            "--user", "alice", "--jobs=4", "--format", "csv", "--for=2026-03-01", "--label", "nightly", "-f",
        ])
        #expect(parsed.user("user") == UserID("alice"))
        #expect(parsed.int("jobs") == 4)
        #expect(parsed.string("format") == "csv")
        #expect(parsed.day("for") == Day("2026-03-01"))
        #expect(parsed.string("label") == "nightly")
        #expect(parsed.flag("force"))
        #expect(!parsed.flag("json"))
    }

    @Test("an absent option reads as its declared default, or nil without one")
    func defaults() throws {
        let parsed = try parse(["--user", "alice"])
        #expect(parsed.int("jobs") == 2)
        #expect(parsed.string("format") == "jsonl")
        #expect(parsed.day("for") == nil)
        #expect(parsed.string("db") == "./pipeline.sqlite")
        #expect(!parsed.flag("force"))
    }

    @Test("a repeatable option keeps every value in order")
    func repeatable() throws {
        let parsed = try parse(["--user", "alice", "--ack", "7", "--ack=9", "--ack", "8"])
        #expect(parsed.strings("ack") == ["7", "9", "8"])
    }

    @Test("giving a single-valued option twice is an error rather than a silent choice")
    func repeatedOption() {
        #expect(error(["--user", "alice", "--user", "bob"]) == .repeatedOption(option: "--user <user>"))
        #expect(error(["--user", "alice", "--force", "-f"]) == .repeatedOption(option: "--force"))
    }

    @Test("an unknown option suggests the closest declared one, global options included")
    func unknownOptionSuggestion() {
        #expect(error(["--usr", "alice"]) == .unknownOption("--usr", suggestion: "--user"))
        #expect(error(["--user", "alice", "--jsno"]) == .unknownOption("--jsno", suggestion: "--json"))
        #expect(error(["--user", "alice", "-user"]) == .unknownOption("-user", suggestion: "--user"))
        #expect(error(["--user", "alice", "--frobnicate"]) == .unknownOption("--frobnicate", suggestion: nil))
        #expect(error(["--user", "alice", "-x"]) == .unknownOption("-x", suggestion: nil))
    }

    @Test("a value-taking option at the end, or before another option or --, is missing its value")
    func missingValue() {
        #expect(error(["--user"]) == .missingValue(option: "--user <user>"))
        #expect(error(["--user", "alice", "--jobs", "--force"]) == .missingValue(option: "--jobs <n>"))
        #expect(error(["--user", "alice", "--jobs", "--", "3"]) == .missingValue(option: "--jobs <n>"))
    }

    @Test("a flag given a value is an error")
    func flagWithValue() {
        #expect(error(["--user", "alice", "--force=yes"]) == .unexpectedValue(option: "--force"))
    }

    @Test("a required option that is absent is named with its value")
    func missingRequired() {
        #expect(error([]) == .missingOption(option: "--user <user>"))
    }

    @Test("values are checked against their type before the command runs")
    func badValues() {
        #expect(
            error(["--user", "alice", "--jobs", "many"])
                == .invalidValue("many", origin: "'--jobs <n>'", expected: "an integer from 1 to 8"))
        #expect(
            error(["--user", "alice", "--jobs", "9"])
                == .invalidValue("9", origin: "'--jobs <n>'", expected: "an integer from 1 to 8"))
        #expect(
            error(["--user", "alice", "--format", "xml"])
                == .invalidValue("xml", origin: "'--format <jsonl|csv>'", expected: "one of jsonl, csv"))
        #expect(
            error(["--user", "alice", "--for", "2026-02-30"])
                == .invalidValue("2026-02-30", origin: "'--for <day>'", expected: "a date YYYY-MM-DD"))
        #expect(
            error(["--user", "alice bob"])
                == .invalidValue("alice bob", origin: "'--user <user>'", expected: OptionSpec.ValueType.user.expected))
        #expect(
            error(["--user", "alice", "--label="])
                == .invalidValue("", origin: "'--label <label>'", expected: "a non-empty value"))
    }

    @Test("a negative number is a value, so it reaches the range check")
    func negativeValue() {
        #expect(
            error(["--user", "alice", "--jobs", "-1"])
                == .invalidValue("-1", origin: "'--jobs <n>'", expected: "an integer from 1 to 8"))
    }

    @Test("a positional argument beyond the declared ones is unexpected")
    func unexpectedPositional() {
        #expect(error(["--user", "alice", "a.jsonl", "b.jsonl"]) == .unexpectedArgument("b.jsonl"))
    }

    @Test("a lone dash is a positional argument")
    func dashIsPositional() throws {
        #expect(try parse(["--user", "alice", "-"]).positional("file") == "-")
    }

    @Test("after --, an argument that looks like an option is a positional")
    func terminatorMakesPositional() throws {
        let parsed = try parse(["--user", "alice", "--", "--force"])
        #expect(parsed.positional("file") == "--force")
        #expect(!parsed.flag("force"))
    }

    @Test("options may come before, between and after positionals")
    func interleaved() throws {
        let parsed = try parse(["in.jsonl", "--user", "alice", "--json"])
        #expect(parsed.positional("file") == "in.jsonl")
        #expect(parsed.flag("json"))
    }

    @Test("precedence: the option wins over its environment variable, which wins over the default")
    func environmentPrecedence() throws {
        let environment = ["PIPELINE_DB": "/var/lib/env.sqlite", "PROBE_LABEL": "from-env"]
        let typed = try parse(
            ["--user", "alice", "--db", "typed.sqlite", "--label", "typed"], environment: environment)
        #expect(typed.string("db") == "typed.sqlite")
        #expect(typed.string("label") == "typed")

        let fromEnvironment = try parse(["--user", "alice"], environment: environment)
        #expect(fromEnvironment.string("db") == "/var/lib/env.sqlite")
        #expect(fromEnvironment.string("label") == "from-env")

        let fallback = try parse(["--user", "alice"], environment: ["PIPELINE_DB": ""])
        #expect(fallback.string("db") == "./pipeline.sqlite")
        #expect(fallback.string("label") == nil)
    }

    @Test("positional arities: required, optional, zero or more, one or more")
    func arities() throws {
        func spec(_ arities: PositionalSpec.Arity...) -> CommandSpec {
            CommandSpec(
                name: "t", abstract: "Test.",
                positionals: arities.enumerated().map { PositionalSpec("p\($0.offset)", help: "P.", arity: $0.element) }
            )
        }
        func parse(_ spec: CommandSpec, _ arguments: [String]) throws(CLIError) -> ParsedArguments {
            try ParsedArguments(tokens: Token.tokenize(arguments), spec: spec)
        }

        let requiredThenMany = spec(.required, .zeroOrMore)
        #expect(try parse(requiredThenMany, ["a"]).positionals("p1") == [])
        #expect(try parse(requiredThenMany, ["a", "b", "c"]).positionals("p1") == ["b", "c"])
        #expect(throws: CLIError.missingArgument("<p0>")) { try parse(requiredThenMany, []) }

        let oneOrMore = spec(.oneOrMore)
        #expect(try parse(oneOrMore, ["x", "y"]).positionals("p0") == ["x", "y"])
        #expect(throws: CLIError.missingArgument("<p0> ...")) { try parse(oneOrMore, []) }

        let optional = spec(.required, .optional)
        #expect(try parse(optional, ["a"]).positional("p1") == nil)
        #expect(try parse(optional, ["a", "b"]).positional("p1") == "b")
    }
}
