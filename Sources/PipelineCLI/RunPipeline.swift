/// Runs one `pipeline` command line and returns the process exit status (DESIGN §7). Everything a
/// run prints goes through `io`, and both streams are flushed before it returns, so tests can call
/// it in-process and `main` only has to exit with the result.
///
/// - Parameters:
///   - arguments: argv without the program name.
///   - environment: the variables the run may read (`PIPELINE_DB`, `PIPELINE_LOG`).
public func runPipeline(arguments: [String], environment: [String: String], io: CommandIO) async -> Int32 {
    await run(arguments, environment: environment, io: io, registry: .standard).rawValue
}

/// Whether the command line may fit or apply a model, so that `main` loads OpenBLAS before anything else (it picks
/// the library's kernels as it loads): every command but `audit`, which reads an iOS app's sources, and `help`, and a
/// line that names no command (`--help`, `--version`) or does not parse (its usage error needs no library). The
/// audit then runs where OpenBLAS is not installed, as on an iOS team's build machine.
public func commandNeedsLinearAlgebra(_ arguments: [String]) -> Bool {
    guard let split = try? RootCommand.split(Token.tokenize(arguments)), !split.wantsVersion,
        let name = split.commandName
    else { return false }
    return name != AuditCommand.spec.name && name != HelpCommand.spec.name
}

/// `runPipeline` with the commands to choose from, so tests can drive the same path with their own.
func run(
    _ arguments: [String], environment: [String: String], io: CommandIO, registry: CommandRegistry
) async -> ExitStatus {
    var command: CommandSpec?
    var status: ExitStatus
    do {
        let split = try RootCommand.split(Token.tokenize(arguments))
        if split.wantsVersion {
            throw CleanExit.version
        }
        guard let name = split.commandName else {
            throw split.wantsHelp ? CleanExit.help(nil) : CLIError.missingCommand
        }
        let commandType = try registry.command(named: name)
        command = commandType.spec
        if split.wantsHelp || split.commandTokens.prefix(while: { $0 != .terminator }).contains(where: \.isHelp) {
            throw CleanExit.help(commandType.spec)
        }
        let parsed = try ParsedArguments(
            tokens: split.commandTokens, spec: commandType.spec, environment: environment)
        let context = CommandContext(arguments: parsed, io: io, environment: environment, registry: registry)
        status = try await commandType.run(context)
    } catch {
        let message = ExitMessage(for: error, command: command, registry: registry)
        io.stdout.write(message.stdout)
        io.stderr.write(message.stderr)
        status = message.status
    }

    io.stdout.flush()
    if let failure = io.stdout.failure {
        io.stderr.writeLine("Error: cannot write the output: \(failure)")
        if status == .ok {
            status = .failure
        }
    }
    io.stderr.flush()
    return status
}
