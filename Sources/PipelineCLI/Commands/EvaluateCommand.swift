import Domain
import Foundation
import Learning
import PipelineKit

/// `pipeline evaluate [--days N]`: walk-forward quality of the served forecasts against the baselines.
enum EvaluateCommand: Command {
    static let spec = CommandSpec(
        name: "evaluate",
        abstract: "Walk forward over past days: served forecasts against the baselines.",
        discussion: """
            Each of the last N days D (each user's own calendar) is forecast at noon of the day before: \
            the population model is pooled and every user retrained as 'pipeline retrain' would have done \
            on D - 1, from data before it only, keeping the previous day's model as the incumbent; then D \
            is forecast from the logs through D - 1, as 'pipeline predict --for D' would have. A day counts \
            when its severity and the day before's were logged. With --logged-days N, each user's last N \
            days with a logged severity count instead, however far apart, and tomorrow-equals-today is the \
            last severity logged before the day.

            Prints the mean absolute error of the served forecasts beside tomorrow-equals-today, the user's \
            mean, exponential smoothing of the user's severities (alpha 0.3), the population model and the \
            personal model served without selection, on the same forecasts; the same for forecasts made \
            before the user logged the day before; how often the served 80% interval held the day's \
            severity and its mean width; the share of forecasts served by each kind of model, the share of \
            combined forecasts led by each candidate, and how often a user's kind (a combination's leading \
            candidate) agrees a week apart; and the served flare probabilities' Brier score, ROC area and \
            calibration error (ten bins); then the errors of the served forecasts, tomorrow-equals-today and \
            the population model week by week.

            Records its result in the database (the same figures --json prints; the last 10 \
            evaluations are kept) and trains or changes nothing else: 'pipeline report' shows the \
            latest evaluation's weekly figures on the cohort page, in place of the served models' \
            hold-out metrics.
            """,
        options: [
            .option("days", .integer(1...366), help: "Days to walk forward over (default: 28)."),
            .option(
                "logged-days", .integer(1...366),
                help: "Walk each user's last N days with a logged severity instead of the last N days."),
            SchedulerLaunch.jobsOption,
        ],
        examples: [
            Example("The last four weeks", "pipeline evaluate"),
            Example("Two weeks, as JSON", "pipeline evaluate --days 14 --json"),
            Example("Each user's last 21 logged mornings", "pipeline evaluate --logged-days 21"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let days = context.arguments.int("days")
        let loggedDays = context.arguments.int("logged-days")
        if days != nil && loggedDays != nil {
            throw CLIError.usage("--days and --logged-days choose the days two ways: give one of them")
        }
        let jobs = context.arguments.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        let pipeline = try await Pipeline.open(path: context.databasePath, clock: context.clock, log: context.log)
        let models = PersonalModels(pipeline: pipeline, jobs: jobs)
        let evaluation =
            if let loggedDays {
                try await models.evaluate(loggedDays: loggedDays)
            } else {
                try await models.evaluate(days: days ?? 28)
            }
        try await pipeline.record(evaluation)
        if context.json {
            context.io.stdout.writeLine(evaluation.json.jsonText)
            return .ok
        }
        let out = context.io.stdout
        out.writeLine(
            "walk-forward over \(evaluation.days) \(loggedDays == nil ? "" : "logged ")days, \(evaluation.first) to "
                + "\(evaluation.last): \(evaluation.forecasts) forecasts for \(evaluation.users) users")
        out.writeLine("")
        out.writeLine("forecast                       MAE   before yesterday is logged")
        out.writeLine(line("served", evaluation.served, evaluation.servedBeforeYesterdayLogged))
        out.writeLine(line("tomorrow = today", evaluation.persistence, nil))
        out.writeLine(line("user mean", evaluation.userMean, evaluation.userMeanBeforeYesterdayLogged))
        out.writeLine(line("exponential smoothing", evaluation.smoothing, nil))
        out.writeLine(line("population", evaluation.population, nil))
        out.writeLine(line("personal, ungated", evaluation.ungatedPersonal, nil))
        out.writeLine("")
        if let coverage = evaluation.intervalCoverage, let width = evaluation.intervalWidth {
            out.writeLine("80% interval   held \(percent(coverage)) of the days, mean width \(number(width))")
        }
        let shares = Evaluation.kinds.compactMap { kind in
            evaluation.servedShare[kind].map { "\(name(kind)) \(percent($0))" }
        }
        out.writeLine("served by      \(shares.joined(separator: ", "))")
        let leading = CombinationCandidate.allCases.compactMap { candidate in
            evaluation.leadingShare[candidate].map { "\(candidate.rawValue) \(percent($0))" }
        }
        if !leading.isEmpty { out.writeLine("led by         \(leading.joined(separator: ", "))") }
        out.writeLine(
            "a week apart   \(evaluation.weekApartAgreement.map(percent) ?? "-") of users served the same kind")
        out.writeLine(
            "flare          Brier \(number(evaluation.flareBrier)), AUC \(evaluation.flareAUC.map(number) ?? "-"), "
                + "calibration error \(number(evaluation.flareCalibrationError)), \(evaluation.flareDays) flare days")
        out.writeLine("")
        out.writeLine(
            "week".padding(toLength: 28, withPad: " ", startingAt: 0)
                + "forecasts  served  tomorrow = today  population")
        for period in evaluation.periods {
            let days = "\(period.first) – \(period.last)".padding(toLength: 28, withPad: " ", startingAt: 0)
            let count = String(period.forecasts).leftPadded(to: 9)
            out.writeLine(
                "\(days)\(count)  \(number(period.served).leftPadded(to: 6))  \(number(period.persistence).leftPadded(to: 16))  "
                    + (period.population.map(number) ?? "-").leftPadded(to: 10))
        }
        return .ok
    }

    private static func line(_ label: String, _ value: Double?, _ early: Double?) -> String {
        let padded = label.padding(toLength: 26, withPad: " ", startingAt: 0)
        let main = value.map(number) ?? "    -"
        return "\(padded)\(main)" + (early.map { "   \(number($0))" } ?? "")
    }

    private static func name(_ kind: ModelSource) -> String {
        switch kind {
        case .personal: "personal"
        case .population: "population"
        case .persistence: "tomorrow = today"
        case .recentMean: "recent mean"
        case .smoothing: "smoothing"
        case .combined: "combined"
        }
    }

    private static func number(_ value: Double) -> String { String(format: "%.3f", value) }
    private static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
