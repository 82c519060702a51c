import Domain
import PipelineKit

/// What a command's `run` receives: its checked arguments and everything it may touch outside
/// itself. Commands take time from `clock` and print through `io`, never from the process, so a
/// test can run them in memory at any instant.
struct CommandContext: Sendable {
    let arguments: ParsedArguments
    /// A `FixedClock` at `--now` when given, otherwise the machine's clock.
    let clock: any Clock
    /// `--db`, else `PIPELINE_DB`, else `./pipeline.sqlite`.
    let databasePath: String
    /// `--json`: print machine-readable JSON instead of text.
    let json: Bool
    let io: CommandIO
    /// Diagnostics to stderr; pass it to libraries.
    let log: any LogSink
    let environment: [String: String]
    /// The commands of this run, for commands that describe other commands (`help`).
    let registry: CommandRegistry

    init(
        arguments: ParsedArguments, io: CommandIO, environment: [String: String], registry: CommandRegistry
    ) {
        self.arguments = arguments
        self.clock = arguments.date("now").map { FixedClock($0) } ?? SystemClock()
        // Declared with a default, so always present.
        self.databasePath = arguments.string("db")!
        self.json = arguments.flag("json")
        self.io = io
        self.log = StandardErrorLog(writer: io.stderr, environment: environment)
        self.environment = environment
        self.registry = registry
    }

    /// The input a `FILE|-` argument names: standard input for `-`, otherwise the file, opened for
    /// reading.
    func input(_ path: String) throws(CLIError) -> InputSource {
        path == "-" ? io.stdin : try InputSource.open(path: path)
    }

    /// Opens an existing database: every command but ingestion and `init` refuses a path where there is none, so
    /// a mistyped `--db` is an error and creates nothing.
    func openPipeline() async throws -> Pipeline {
        try await Pipeline.openExisting(path: databasePath, clock: clock, log: log)
    }

    /// The `<action>` of `PositionalSpec.action`; `nil` to list (then no `<id>` follows either).
    func action<Action: CaseIterable & RawRepresentable<String>>(_: Action.Type) throws(CLIError) -> Action? {
        guard let word = arguments.positional("action") else { return nil }
        guard let action = Action(rawValue: word) else {
            throw .invalidValue(word, origin: "'<action>'", expected: Action.words)
        }
        return action
    }

    /// The `<id>` positionals of an operator's action (`requests cancel 12 13`); `what` names the
    /// thing in the error, e.g. "a request".
    func ids(of what: String) throws(CLIError) -> [Int64] {
        try arguments.positionals("id").map { (text) throws(CLIError) -> Int64 in
            guard let id = Int64(text), id > 0 else {
                throw .invalidValue(text, origin: "'<id>'", expected: "\(what) id, a positive integer")
            }
            return id
        }
    }
}

extension CaseIterable where Self: RawRepresentable<String> {
    /// Every case's word, for help and errors: `cancel or retry`.
    static var words: String { allCases.map(\.rawValue).joined(separator: " or ") }
}
