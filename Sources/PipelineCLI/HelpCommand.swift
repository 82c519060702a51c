/// `pipeline help [<command>]`: the same text as `pipeline --help` and `pipeline <command> --help`.
enum HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show the commands of pipeline, or the options of one command.",
        positionals: [PositionalSpec("command", help: "The command to explain.", arity: .optional)],
        examples: [
            Example("List every command", "pipeline help"),
            Example("Show the options of ingest", "pipeline help ingest"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        guard let name = context.arguments.positional("command") else { throw CleanExit.help(nil) }
        throw CleanExit.help(try context.registry.command(named: name).spec)
    }
}
