import Foundation
import Glibc
import TestSupport
import Testing

@testable import PipelineCLI

@Suite("Running a command line in-process")
struct RunTests {
    @Test("a command runs with its parsed values, the default database and the machine's clock")
    func runsCommand() async {
        let result = await runTest(["probe", "--user", "alice", "--ack", "3"])
        #expect(result.status == .ok)
        let values = probed(result.stdout)
        #expect(values["user"] == "alice")
        #expect(values["ack"] == "3")
        #expect(values["db"] == "./pipeline.sqlite")
        #expect(values["clock"] == "SystemClock")
        #expect(values["json"] == "false")
    }

    @Test("global options are accepted before and after the command name")
    func globalsAnywhere() async {
        let before = await runTest(["--db", "a.sqlite", "--json", "probe", "--user", "alice"])
        let after = await runTest(["probe", "--user", "alice", "--db=a.sqlite", "--json"])
        for result in [before, after] {
            #expect(result.status == .ok)
            #expect(probed(result.stdout)["db"] == "a.sqlite")
            #expect(probed(result.stdout)["json"] == "true")
        }
    }

    @Test("only a command that may fit or apply a model loads OpenBLAS: the audit, help and --version run without it")
    func linearAlgebraOnlyWhereModelsAre() {
        for arguments in [
            ["audit", "MyApp"], ["audit", "--json", "."], ["help"], ["help", "retrain"], ["--help"], ["--version"],
            [], ["--bogus"],
        ] {
            #expect(!commandNeedsLinearAlgebra(arguments), "\(arguments)")
        }
        for arguments in [["retrain"], ["--db", "audit", "retrain"], ["predict", "--user", "a"], ["status"], ["run"]] {
            #expect(commandNeedsLinearAlgebra(arguments), "\(arguments)")
        }
    }

    @Test("a global option given both before and after the command is an error")
    func globalTwice() async {
        let result = await runTest(["--db", "a.sqlite", "probe", "--user", "alice", "--db", "b.sqlite"])
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("Error: '--db <path|url>' may be given only once\n"))
    }

    @Test("--db wins over PIPELINE_DB, which wins over ./pipeline.sqlite")
    func databasePrecedence() async {
        let environment = ["PIPELINE_DB": "/srv/env.sqlite"]
        let typed = await runTest(["probe", "--user", "a", "--db", "flag.sqlite"], environment: environment)
        let fromEnvironment = await runTest(["probe", "--user", "a"], environment: environment)
        let fallback = await runTest(["probe", "--user", "a"])
        #expect(probed(typed.stdout)["db"] == "flag.sqlite")
        #expect(probed(fromEnvironment.stdout)["db"] == "/srv/env.sqlite")
        #expect(probed(fallback.stdout)["db"] == "./pipeline.sqlite")
    }

    @Test("--now stops the clock at the instant given")
    func fixedClock() async {
        let result = await runTest(["probe", "--user", "a", "--now", "2026-03-01T09:00:00+01:00"])
        #expect(result.status == .ok)
        #expect(probed(result.stdout)["clock"] == "FixedClock")
        #expect(probed(result.stdout)["now"] == String(Date(iso: "2026-03-01T08:00:00Z").timeIntervalSince1970))
    }

    @Test("an invalid --now is a usage error that shows the expected form")
    func invalidNow() async {
        let result = await runTest(["--now", "2026-03-01", "probe", "--user", "a"])
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains(
                "Error: invalid value '2026-03-01' for '--now <instant>': expected an ISO 8601 instant such as 2026-03-01T08:00:00Z"
            ))
    }

    @Test("a usage error goes to stderr as Error, Usage and a hint, with status 64")
    func usageErrorReport() async {
        let result = await runTest(["probe", "--usr", "alice"])
        #expect(result.status == .usage)
        #expect(ExitStatus.usage.rawValue == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "Error: unknown option '--usr'. Did you mean '--user'?")
        #expect(lines[1].hasPrefix("Usage: pipeline probe --user <user>"))
        #expect(lines.contains("See 'pipeline probe --help'."))
    }

    @Test("a usage error thrown by a command shows that command's usage")
    func commandUsageError() async {
        let result = await runTest(["fail", "usage"])
        #expect(result.status == .usage)
        #expect(
            result.stderr
                == "Error: --from must not be after --to\nUsage: pipeline fail <how>\nSee 'pipeline fail --help'.\n")
    }

    @Test("errors of other modules are reported with their adapted status; unadapted ones as failures")
    func errorMapping() async {
        let domain = await runTest(["fail", "domain"])
        #expect(domain.status == .dataError)
        #expect(domain.stderr == "Error: mood: must be 1...5\n")

        let unknown = await runTest(["fail", "unknown"])
        #expect(unknown.status == .failure)
        #expect(unknown.stderr == "Error: the disk went away\n")

        let temporary = await runTest(["fail", "temporary"])
        #expect(temporary.status == .temporaryFailure)
        #expect(temporary.stderr.isEmpty)
    }

    @Test("--help and -h print the command's help to stdout with status 0, even when a required option is missing")
    func commandHelp() async {
        for arguments in [
            ["probe", "--help"], ["probe", "-h"], ["--help", "probe"], ["help", "probe"], ["probe", "--bogus", "-h"],
        ] {
            let result = await runTest(arguments)
            #expect(result.status == .ok, "\(arguments)")
            #expect(result.stdout == HelpText.command(ProbeCommand.spec), "\(arguments)")
            #expect(result.stderr.isEmpty)
        }
    }

    @Test("--help after -- is a positional argument, not a request for help")
    func helpAfterTerminator() async {
        let result = await runTest(["probe", "--user", "a", "--", "--help"])
        #expect(result.status == .failure)
        #expect(result.stderr == "Error: cannot open '--help': No such file or directory\n")
    }

    @Test("pipeline --help and pipeline help list every command with its abstract")
    func rootHelp() async {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = await runTest(arguments)
            #expect(result.status == .ok)
            #expect(result.stdout == HelpText.root(testRegistry.specs))
        }
    }

    @Test("pipeline with no arguments prints the command list to stdout, as git does, with status 64")
    func noArguments() async {
        for arguments in [[], ["--json"]] {
            let result = await runTest(arguments)
            #expect(result.status == .usage)
            #expect(result.stdout == HelpText.root(testRegistry.specs))
            #expect(result.stderr.isEmpty)
        }
    }

    @Test("an unknown command suggests the closest, with the root usage")
    func unknownCommand() async {
        let result = await runTest(["prboe"])
        #expect(result.status == .usage)
        #expect(
            result.stderr == """
                Error: unknown command 'prboe'. Did you mean 'probe'?
                Usage: pipeline <command> [<options>] [<arguments>]
                See 'pipeline --help'.

                """)
        let viaHelp = await runTest(["help", "prboe"])
        #expect(viaHelp.stderr == result.stderr)
    }

    @Test("an unknown option before the command suggests among the root options")
    func unknownRootOption() async {
        let result = await runTest(["--verison"])
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("Error: unknown option '--verison'. Did you mean '--version'?\n"))
    }

    @Test("--version prints the version to stdout")
    func version() async {
        let result = await runTest(["--version"])
        #expect(result.status == .ok)
        #expect(result.stdout == "pipeline \(RootCommand.version)\n")
    }

    @Test("- reads standard input line by line")
    func standardInput() async {
        let result = await runTest(["probe", "--user", "a", "-"], stdin: "first\r\nsecond\n\nlast")
        #expect(result.status == .ok)
        #expect(result.stdout.hasSuffix("read: first\nread: second\nread: \nread: last\n"))
    }

    @Test("only warnings and errors are logged unless PIPELINE_LOG=debug")
    func logLevel() async {
        let quiet = await runTest(["probe", "--user", "a"])
        #expect(quiet.stderr == "warning: probe warns\n")
        let verbose = await runTest(["probe", "--user", "a"], environment: ["PIPELINE_LOG": "debug"])
        #expect(verbose.stderr == "debug: probe finished\nwarning: probe warns\n")
    }

    @Test("output that cannot be written turns success into failure, with the reason on stderr")
    func writeFailure() async throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0, "this test needs /dev/full")
        defer { close(descriptor) }
        let result = await runTest(["fail", "lines"], stdout: OutputWriter(fileDescriptor: descriptor, buffered: true))
        #expect(result.status == .failure)
        #expect(result.stderr == "Error: cannot write the output: No space left on device\n")
    }

    @Test("runCLI runs the product's registry in memory")
    func productRunner() async {
        let result = await runCLI(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "pipeline \(RootCommand.version)\n")
        #expect(result.stderr.isEmpty)
    }
}
