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
        let pipeline = try await context.openPipeline()
        let models = PersonalModels(pipeline: pipeline, jobs: jobs)
        let progress = ProgressLine(context.io, label: "evaluating", unit: Self.userDays)
        var report: (@Sendable (Int, Int) -> Void)?
        if let progress { report = { done, total in progress.update(done: done, total: total) } }
        let evaluation: Evaluation
        do {
            evaluation =
                if let loggedDays {
                    try await models.evaluate(loggedDays: loggedDays, progress: report)
                } else {
                    try await models.evaluate(days: days ?? 28, progress: report)
                }
            try await pipeline.record(evaluation)
        } catch {
            progress?.finish()
            throw error
        }
        progress?.finish(
            progress.map {
                "evaluated \(evaluation.days) \(loggedDays == nil ? "" : "logged ")days for "
                    + "\(ProgressLine.count(evaluation.users)) users in \(ProgressLine.took($0.elapsed)): "
                    + "\(ProgressLine.count(evaluation.forecasts)) forecasts scored"
            })
        if let warning = Self.shortfall(evaluation, asked: days ?? 28, logged: loggedDays != nil) {
            context.io.stderr.writeLine("warning: " + warning)
        }
        if context.json {
            context.io.stdout.writeLine(evaluation.json.jsonText)
            return .ok
        }
        let out = context.io.stdout
        out.writeLine(
            "walk-forward over \(evaluation.days) \(loggedDays == nil ? "" : "logged ")days, \(evaluation.first) to "
                + "\(evaluation.last): \(evaluation.forecasts) forecasts for \(evaluation.users) users")
        out.writeLine("")
        let errors = TextTable(
            [.init("forecast"), .init("MAE", .right), .init("MAE before yesterday is logged", .right)], writer: out)
        for (label, value, early) in [
            ("served", evaluation.served, evaluation.servedBeforeYesterdayLogged),
            ("tomorrow = today", evaluation.persistence, nil),
            ("user mean", evaluation.userMean, evaluation.userMeanBeforeYesterdayLogged),
            ("exponential smoothing", evaluation.smoothing, nil), ("population", evaluation.population, nil),
            ("personal, ungated", evaluation.ungatedPersonal, nil),
        ] as [(String, Double?, Double?)] {
            errors.add([label, value.map(number) ?? "-", early.map(number) ?? ""])
        }
        errors.finish()
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
        let weeks = TextTable(
            [
                .init("week"), .init("forecasts", .right), .init("served", .right),
                .init("tomorrow = today", .right), .init("population", .right),
            ], writer: out)
        for period in evaluation.periods {
            weeks.add([
                "\(period.first) – \(period.last)", String(period.forecasts), number(period.served),
                number(period.persistence), period.population.map(number) ?? "-",
            ])
        }
        weeks.finish()
        return .ok
    }

    /// What `evaluate` counts on its progress line: one user retrained and forecast for one day.
    static let userDays = ProgressLine.Unit(one: "user-day", many: "user-days")

    /// What the figures rest on when the database holds less than the walk asked for: `nil` when every day had
    /// a forecast to score.
    static func shortfall(_ evaluation: Evaluation, asked days: Int, logged: Bool) -> String? {
        let rule =
            logged
            ? "a day counts when its severity and an earlier one were logged"
            : "a day counts when its severity and the day before's were logged"
        if evaluation.forecasts == 0 {
            return "no forecast could be scored in the \(days) days walked (\(rule)); ingest more days, or walk "
                + "further back with a larger --days"
        }
        guard !logged, evaluation.scoredDays < days else { return nil }
        return "only \(evaluation.scoredDays) of the \(days) days walked had a forecast to score (\(rule)): "
            + "the figures rest on \(evaluation.forecasts) forecast\(evaluation.forecasts == 1 ? "" : "s")"
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
