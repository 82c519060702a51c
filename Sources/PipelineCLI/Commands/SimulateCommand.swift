import Domain
import Lifecycle

/// `pipeline simulate`: the iOS app-lifecycle boundary on a virtual clock (DESIGN §9): scripted
/// scenarios, or a phone running the real scheduler for days.
enum SimulateCommand: Command {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Replay how iOS suspends, kills and launches an app doing background work.",
        discussion: """
            With no options, plays the three scripted stories below one after the other; \
            --scenario plays one. Each prints its state log, one line per event with \
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


                    --device runs two apps side by side on a simulated phone for --days days, each on its \
                    own temporary database with the pipeline's real scheduler and tasks on a virtual clock: \
                    A submits its task chains at every launch, B only registers its handlers (the original \
                    iOS app). The phone follows a seeded usage pattern: visits to the app, charging most \
                    nights, and background launches the system offers a few times a day and at night, only \
                    for a submitted request that is due. iOS's limits hold: one pending refresh request \
                    and ten processing requests per app, so of the three refresh chains only one is ever \
                    pending. ml-retrain needs external power, so it runs only while the phone charges; its \
                    work takes virtual time (3 min) against its 10 min budget, and the system ends it \
                    early on memory pressure, unplugging or a force-quit. A force-quit stops background launches until the user opens \
                    the app; Background App Refresh denied or Low Power Mode stops them all. It prints a \
                    table with one row per day and one summary line per app, counted from each app's run \
                    history, with the reminders the app delivered to the user.

                    Every run prints the same output for the same options. With --json, each event or day \
                    is one JSON object per line.
                    """,
        options: [
            .option(
                "scenario", .choice(LifecycleScenario.allCases.map(\.rawValue)), valueName: "name",
                help: "The story to replay: " + LifecycleScenario.allCases.map(\.rawValue).joined(separator: ", ") + "."
            ),
            .flag("device", help: "Simulate a phone with both apps for --days days."),
            .option("days", .integer(1...365), help: "Days to simulate with --device.", default: "30"),
            .option("seed", .integer(0...Int.max), help: "The seed of the phone's usage with --device.", default: "1"),
            .option("start", .day, help: "The first simulated day (UTC) with --device.", default: "2026-03-01"),
            .option(
                "force-quit-day", .integer(1...365), valueName: "n",
                help: "With --device: the user force-quits the apps on day n."),
            .flag("refresh-denied", help: "With --device: Background App Refresh is off for both apps."),
            .flag("low-power", help: "With --device: the phone stays in Low Power Mode."),
        ],
        examples: [
            Example("Replay the three scripted stories", "pipeline simulate"),
            Example("Watch an upload overrun its background time", "pipeline simulate --scenario overruns-window"),
            Example("The same log as JSON Lines", "pipeline simulate --scenario memory-pressure --json"),
            Example(
                "A month on a phone, with a force-quit on day 10", "pipeline simulate --device --force-quit-day 10"),
        ])

    /// The options that only make sense with `--device`.
    private static let deviceOptions = ["force-quit-day", "refresh-denied", "low-power"]

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let arguments = context.arguments
        let scenario = arguments.string("scenario")
        guard scenario == nil || !arguments.flag("device") else {
            throw CLIError.usage("give --scenario <name> or --device, not both")
        }
        if !arguments.flag("device") {
            if arguments.int("force-quit-day") != nil || arguments.flag("refresh-denied") || arguments.flag("low-power")
            {
                throw CLIError.usage(
                    deviceOptions.map { "--" + $0 }.joined(separator: ", ") + " apply to --device only")
            }
            // The spec restricts the value to the scenarios' names, so it always maps back.
            let scenarios = scenario.map { [LifecycleScenario(rawValue: $0)!] } ?? LifecycleScenario.allCases
            for (index, scenario) in scenarios.enumerated() {
                if scenarios.count > 1, !context.json {
                    if index > 0 { context.io.stdout.writeLine("") }
                    context.io.stdout.writeLine("scenario \(scenario.rawValue): \(scenario.summary)")
                }
                for event in scenario.run() {
                    var object = event.jsonObject
                    if scenarios.count > 1 { object["scenario"] = .string(scenario.rawValue) }
                    context.io.stdout.writeLine(context.json ? object.jsonText : event.description)
                }
            }
            return .ok
        }

        let days = arguments.int("days")!
        if let day = arguments.int("force-quit-day"), day > days {
            throw CLIError.usage("--force-quit-day \(day) is after the last simulated day (--days \(days))")
        }
        var device = DeviceSimulation(days: days, seed: UInt64(arguments.int("seed")!))
        device.start = arguments.day("start")!
        device.forceQuitDay = arguments.int("force-quit-day")
        device.backgroundRefreshDenied = arguments.flag("refresh-denied")
        device.lowPowerMode = arguments.flag("low-power")
        let report = try await device.run()
        if context.json {
            for object in report.jsonLines {
                context.io.stdout.writeLine(object.jsonText)
            }
        } else {
            for line in report.lines {
                context.io.stdout.writeLine(line)
            }
        }
        return .ok
    }
}
