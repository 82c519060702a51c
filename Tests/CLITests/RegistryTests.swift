import TestSupport
import Testing

@testable import PipelineCLI

/// Checks every command of the product, so that a command added later is held to the same rules.
@Suite("The product's commands")
struct RegistryTests {
    static let specs = CommandRegistry.standard.specs

    @Test("every registered command has a well-formed spec", arguments: specs.map(\.name))
    func wellFormed(name: String) throws {
        let spec = try #require(Self.specs.first { $0.name == name })
        #expect(spec.problems() == [])
    }

    @Test("command names are unique")
    func uniqueNames() {
        #expect(Set(Self.specs.map(\.name)).count == Self.specs.count)
    }

    @Test("pipeline --help lists every registered command with its abstract")
    func rootHelp() async {
        let result = await runCLI(["--help"])
        #expect(result.status == 0)
        for spec in Self.specs {
            #expect(result.stdout.contains("  \(spec.name) "), "missing \(spec.name)")
            #expect(flattened(result.stdout).contains(spec.abstract), "missing the abstract of \(spec.name)")
        }
    }

    @Test(
        "every command's --help lists each of its options, and equals pipeline help <command>",
        arguments: specs.map(\.name))
    func commandHelp(name: String) async throws {
        let spec = try #require(Self.specs.first { $0.name == name })
        let viaFlag = await runCLI([name, "--help"])
        let viaCommand = await runCLI(["help", name])
        #expect(viaFlag.status == 0)
        #expect(viaFlag.stdout == viaCommand.stdout)
        for option in spec.options {
            #expect(viaFlag.stdout.contains(option.synopsis), "\(name) --help misses \(option.synopsis)")
        }
    }

    @Test("pipeline without arguments shows the command list and exits 64")
    func noArguments() async {
        let result = await runCLI([])
        #expect(result.status == 64)
        #expect(result.stdout == HelpText.root(Self.specs))
    }

    @Test("the spec check finds the mistakes it names")
    func problemsAreFound() {
        let broken = CommandSpec(
            name: "Bad",
            abstract: "",
            options: [
                .option("db", help: "Shadows the global."),
                .option("jobs", .integer(1...4), help: "Jobs.", default: "9"),
                .option("user", help: "", required: true),
            ],
            positionals: [
                PositionalSpec("a", help: "A.", arity: .optional), PositionalSpec("b", help: "B."),
            ],
            examples: [Example("Wrong", "pipeline other")])
        let problems = broken.problems()
        #expect(problems.count == 7, "\(problems)")
    }
}
