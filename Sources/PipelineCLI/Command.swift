/// One `pipeline` subcommand: a table describing its command line and a function that runs it.
///
/// To add a command, write one file with a caseless enum conforming to `Command`, and add it to
/// `CommandRegistry.standard`. Parsing, validation, `--help`, the global options and error
/// reporting come from the spec; `run` starts with its arguments already checked.
protocol Command: Sendable {
    static var spec: CommandSpec { get }

    /// Does the work; returns how it went. A thrown error is reported by `ExitMessage`: usage errors
    /// (`CLIError.usage`) with the command's usage line, `CLIReportableError`s with their own
    /// status, anything else as a failure (status 1).
    static func run(_ context: CommandContext) async throws -> ExitStatus
}
