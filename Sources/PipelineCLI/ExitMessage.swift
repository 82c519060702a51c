/// The message and status a run ends with when a command throws or asks to stop early (a `CleanExit`): the single place that
/// decides every message, its stream and the exit status.
struct ExitMessage: Sendable, Hashable {
    var stdout = ""
    var stderr = ""
    var status: ExitStatus

    /// - Parameters:
    ///   - command: the command being parsed or run, whose usage line a usage error shows; `nil`
    ///     before a command was found.
    ///   - registry: the commands the root help lists.
    init(for error: any Error, command: CommandSpec?, registry: CommandRegistry) {
        switch error {
        case CleanExit.help(let spec):
            stdout = spec.map(HelpText.command) ?? HelpText.root(registry.specs)
            status = .ok
        case CleanExit.version:
            stdout = "pipeline \(RootCommand.version)\n"
            status = .ok
        case CLIError.missingCommand:
            // As git does: the list of commands is the useful answer, on stdout, but the run did
            // nothing a script asked for, so the status says usage error.
            stdout = HelpText.root(registry.specs)
            status = .usage
        case let error as CLIError where error.exitStatus == .usage:
            // An unknown command is a mistake at the root, whichever command reported it (`help`).
            let spec: CommandSpec? = if case .unknownCommand = error { nil } else { command }
            let helpCommand = ["pipeline", spec?.name, "--help"].compactMap { $0 }.joined(separator: " ")
            stderr = """
                Error: \(error.message)
                \(HelpText.usage(spec))
                See '\(helpCommand)'.

                """
            status = .usage
        case let error as any CLIReportableError:
            stderr = "Error: \(error.message)\n"
            status = error.exitStatus
        default:
            stderr = "Error: \(error)\n"
            status = .failure
        }
    }
}
