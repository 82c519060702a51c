/// The commands `pipeline` knows, in the order `pipeline --help` lists them.
struct CommandRegistry: Sendable {
    /// Every command of the product. Adding a command is adding one line here.
    static let standard = CommandRegistry([
        InitCommand.self,
        IngestCommand.self,
        ExportCommand.self,
        StatusCommand.self,
        GenerateCommand.self,
        RunCommand.self,
        RetrainCommand.self,
        FeaturesCommand.self,
        ModelCommand.self,
        PredictCommand.self,
        EvaluateCommand.self,
        HistoryCommand.self,
        OutboxCommand.self,
        RequestsCommand.self,
        DeadLettersCommand.self,
        CopyCommand.self,
        ReportCommand.self,
        SimulateCommand.self,
        AuditCommand.self,
        HelpCommand.self,
    ])

    let commands: [any Command.Type]

    init(_ commands: [any Command.Type]) {
        self.commands = commands
    }

    var specs: [CommandSpec] { commands.map { $0.spec } }

    /// The command called `name`, or a usage error suggesting the closest name.
    func command(named name: String) throws(CLIError) -> any Command.Type {
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            throw .unknownCommand(name, suggestion: Suggestion.closest(to: name, among: specs.map(\.name)))
        }
        return command
    }
}
