import Foundation
import PipelineKit
import Scheduling

/// `pipeline retrain`: a launch that runs the due `ml-retrain` requests.
enum RetrainCommand: Command {
    static let spec = CommandSpec(
        name: "retrain",
        abstract: "Launch the scheduler and run the due ml-retrain tasks.",
        discussion: """
            Like 'pipeline run', but runs only ml-retrain: each user's personal model is retrained \
            when their request is due and the machine is on external power. A user's retrain is due \
            every day from 03:00 on the user's own clock, when their day is complete, so a daily \
            cron line at any hour finds every user's retrain due. --force retrains now even if not \
            due (the next night's retrain stays where it was); --user limits it to one user.

            Exit status 75 when a retrain was due but could not run now: the machine is on battery, \
            or another process is already running it. Silent on success.
            """,
        options: [
            .option("user", .user, help: "Retrain this user only."),
            .flag("force", help: "Retrain now, even if the next retrain is not due yet."),
            .option(
                "budget", .duration,
                help: "Time each retrain may take before it expires, e.g. 90s, 15m, 1h (default: 10m)."),
            SchedulerLaunch.jobsOption,
            SchedulerLaunch.metricsFileOption,
            SchedulerLaunch.maxAttemptsOption,
            SchedulerLaunch.keepHistoryOption,
        ],
        examples: [
            Example("Retrain what is due", "pipeline retrain"),
            Example("Retrain alice now, with half an hour", "pipeline retrain --user alice --force --budget 30m"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let pipeline = try await context.openPipeline()
        let user = context.arguments.user("user")
        if let user, try await pipeline.user(user) == nil {
            throw PipelineError.unknownUser(user.rawValue)
        }
        var options = SchedulerLaunch.launchOptions(context, pipeline: pipeline)
        options.tasks = [PipelineTasks.mlRetrain]
        options.user = user
        options.force = context.arguments.flag("force")
        options.budget = context.arguments.duration("budget")
        let (report, progress) = try await ProgressLine.launch(
            options, label: "retraining", unit: .users, pipeline: pipeline, context: context)
        progress?.finish(progress.flatMap { summary(report, took: $0.elapsed) })
        if report.unsuccessfulRunCount > 0 { return .failure }
        if report.runCount == 0, !report.waitingForConditions.isEmpty || !report.runningElsewhere.isEmpty {
            if !report.waitingForConditions.isEmpty {
                let count = report.waitingForConditions.count
                context.io.stderr.writeLine(
                    "Error: ml-retrain is due for \(count) user\(count == 1 ? "" : "s") but the machine is not on "
                        + "external power; it runs at a later launch on power")
            }
            if !report.runningElsewhere.isEmpty {
                let count = report.runningElsewhere.count
                context.io.stderr.writeLine(
                    "Error: ml-retrain for \(count) user\(count == 1 ? "" : "s") is already running in another "
                        + "process; try again later")
            }
            return .temporaryFailure
        }
        return .ok
    }

    /// The line a retrain on a terminal ends with: "retrained 200 users in 3.1 s (65 users/s): 200 succeeded".
    /// `nil` when nothing ran because the machine is on battery or another process runs it: the errors say so.
    static func summary(_ report: LaunchReport, took elapsed: Duration) -> String? {
        let runs = report.runCount
        guard runs > 0 else {
            if !report.waitingForConditions.isEmpty || !report.runningElsewhere.isEmpty { return nil }
            return
                "retrain: nothing was due (each user's retrain is due from 03:00 on their clock; --force runs it now)"
        }
        let rate = Double(runs) / max(elapsed.timeInterval, 0.001)
        let outcomes = TaskOutcome.allCases.compactMap { outcome in
            report.outcomes[outcome].flatMap { $0 > 0 ? "\(ProgressLine.count($0)) \(Self.word(outcome))" : nil }
        }
        var line =
            "retrained \(ProgressLine.count(runs)) \(ProgressLine.Unit.users(runs)) in \(ProgressLine.took(elapsed)) "
            + "(\(ProgressLine.rate(rate)) users/s): " + outcomes.joined(separator: ", ")
        if report.unsuccessfulRunCount > 0 { line += "; 'pipeline history --identifier ml-retrain' says why" }
        return line
    }

    private static func word(_ outcome: TaskOutcome) -> String {
        switch outcome {
        case .success: "succeeded"
        case .failure: "failed"
        case .expired: "ran out of time"
        }
    }
}
