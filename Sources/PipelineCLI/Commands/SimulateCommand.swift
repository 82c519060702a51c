import Lifecycle

/// `pipeline simulate`: the iOS app-lifecycle boundary on a virtual clock (DESIGN §9).
enum SimulateCommand: Command {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Replay how iOS suspends and kills an app doing background work.",
        discussion: """
            --scenario plays one scripted story and prints its state log, one line per event with \
            its virtual time since the start: state transitions (active, background, suspended, \
            terminated) with their cause, background tasks begun and ended, expiration handlers, and \
            work started, frozen, refused or lost. A background task keeps the app running for \
            30 s after it leaves the foreground; the expiration handlers are called 5 s before the \
            deadline, and a task not ended by then gets the app killed. A suspended app runs no \
            code and is killed under memory pressure without a callback.

            Scenarios:
            """
                + LifecycleScenario.allCases.map { "\n  \($0.rawValue)\n" + HelpText.wrap($0.summary, indent: 4) }
                .joined()
                    + """


                    The log is the same on every run. With --json, each event is one JSON object per line.
                    """,
        options: [
            .option(
                "scenario", .choice(LifecycleScenario.allCases.map(\.rawValue)), valueName: "name",
                help: "The story to replay: " + LifecycleScenario.allCases.map(\.rawValue).joined(separator: ", ")
                    + ".",
                required: true)
        ],
        examples: [
            Example("Watch an upload overrun its background time", "pipeline simulate --scenario overruns-window"),
            Example("The same log as JSON Lines", "pipeline simulate --scenario memory-pressure --json"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        // The spec restricts the value to the scenarios' names, so it always maps back.
        let scenario = LifecycleScenario(rawValue: context.arguments.string("scenario")!)!
        let out = context.io.stdout
        for event in scenario.run() {
            out.writeLine(context.json ? event.jsonObject.jsonText : event.description)
        }
        return .ok
    }
}
