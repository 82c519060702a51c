import Testing

@testable import PipelineCLI

@Suite("Tokenizing argv")
struct TokenTests {
    @Test("--name=value keeps everything after the first equals sign as the value")
    func longWithAttachedValue() {
        #expect(Token.tokenize(["--user=alice"]) == [.long("user", value: "alice")])
        #expect(Token.tokenize(["--label=a=b"]) == [.long("label", value: "a=b")])
        #expect(Token.tokenize(["--label="]) == [.long("label", value: "")])
    }

    @Test("--name value leaves the value as an argument for the matcher to take")
    func longWithSeparateValue() {
        #expect(Token.tokenize(["--user", "alice"]) == [.long("user", value: nil), .argument("alice")])
    }

    @Test("a flag, a short option and a plain argument")
    func flagShortAndArgument() {
        #expect(
            Token.tokenize(["--force", "-h", "file.jsonl"]) == [
                .long("force", value: nil), .short("h"), .argument("file.jsonl"),
            ])
    }

    @Test("a lone dash is a positional argument: standard input")
    func loneDash() {
        #expect(Token.tokenize(["-"]) == [.argument("-")])
    }

    @Test("after -- every argument is positional, even ones that look like options")
    func terminator() {
        #expect(
            Token.tokenize(["--json", "--", "--user", "-h", "--"]) == [
                .long("json", value: nil), .terminator, .argument("--user"), .argument("-h"), .argument("--"),
            ])
    }

    @Test("negative numbers are values, not short options")
    func negativeNumbers() {
        #expect(Token.tokenize(["-5", "-0.5", "-.5"]) == [.argument("-5"), .argument("-0.5"), .argument("-.5")])
    }

    @Test("a bundle of short letters stays one token, so it is reported as unknown rather than guessed")
    func shortBundle() {
        #expect(Token.tokenize(["-abc"]) == [.short("abc")])
    }

    @Test("the spelling of a token is what the user typed")
    func spelling() {
        let arguments = ["--user=alice", "--json", "-h", "file", "--"]
        #expect(Token.tokenize(arguments).map(\.spelling) == arguments)
    }
}
