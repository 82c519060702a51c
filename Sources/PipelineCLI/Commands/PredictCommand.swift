import Domain
import Foundation
import Learning
import PipelineKit

/// `pipeline predict --user U [--for D]`: tomorrow's (or day D's) forecast.
enum PredictCommand: Command {
    static let spec = CommandSpec(
        name: "predict",
        abstract: "Forecast a day's symptom severity, its 80% interval and the flare probability.",
        discussion: """
            Uses the model the user is served (see 'pipeline model') and their logs up to the day \
            before D. D defaults to tomorrow in the user's time zone and can be at most tomorrow: \
            later days have no data before them yet. The severity is a whole number, the median of \
            the forecast distribution; the interval should hold the day's severity on 80% of days \
            ('pipeline evaluate' measures how often it did). Inputs not logged on the day before are \
            imputed (the user's training mean) and named in a warning on standard error; so is a model \
            trained more than two days ago (retrains run nightly: cron is not running 'pipeline \
            retrain', or they fail). --json has the same warnings in "warnings".
            """,
        options: [
            .option("user", .user, help: "The user to forecast.", required: true),
            .option("for", .day, help: "The day to forecast (default: tomorrow in the user's time zone)."),
        ],
        examples: [Example("Tomorrow, as JSON", "pipeline predict --user alice --json")])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let id = context.arguments.user("user")!
        let pipeline = try await context.openPipeline()
        guard let user = try await pipeline.user(id) else { throw PipelineError.unknownUser(id.rawValue) }
        let tomorrow = user.today(at: context.clock.now).adding(days: 1)
        let day = context.arguments.day("for") ?? tomorrow
        guard day <= tomorrow else {
            throw CLIError.usage(
                "--for can be at most tomorrow (\(tomorrow) in \(user.timeZone.ianaName)): later days have no data before them yet"
            )
        }
        let forecast = try await PersonalModels(pipeline: pipeline).forecast(user: id, for: day)
        let warnings = Self.warnings(forecast, now: context.clock.now)
        for warning in warnings { context.io.stderr.writeLine("warning: " + warning) }
        if context.json {
            var object = JSONObject()
            object["user"] = .string(id.rawValue)
            object["day"] = .string(day.description)
            object["severity"] = .number(forecast.severity)
            object["interval"] =
                forecast.interval.map { .array([.number($0.lowerBound), .number($0.upperBound)]) } ?? .null
            object["flareProbability"] = .number(forecast.flareProbability)
            object["model"] = .string(forecast.source.rawValue)
            object["trainedAt"] = .string(ISO8601Instant.string(from: forecast.trainedAt))
            object["missingInputs"] = .array(forecast.missingInputs.map { .string($0) })
            object["warnings"] = .array(warnings.map { .string($0) })
            context.io.stdout.writeLine(object.jsonText)
            return .ok
        }
        let interval = forecast.interval.map {
            " (80% interval \(String(format: "%.0f", $0.lowerBound))–\(String(format: "%.0f", $0.upperBound)))"
        }
        let line =
            "\(day): severity \(String(format: forecast.interval == nil ? "%.1f" : "%.0f", forecast.severity)) of 10"
            + (interval ?? "") + ", flare probability "
            + "\(String(format: "%.0f", forecast.flareProbability * 100))% (\(forecast.source.rawValue) model trained "
            + "\(ISO8601Instant.string(from: forecast.trainedAt)))"
        context.io.stdout.writeLine(line)
        return .ok
    }

    /// A model older than this has missed a nightly retrain.
    static let staleAfter: TimeInterval = 2 * 86_400

    /// What makes a forecast less than it looks: a model that missed its retrains, inputs imputed.
    static func warnings(_ forecast: ForecastPrediction, now: Date) -> [String] {
        var warnings: [String] = []
        let age = now.timeIntervalSince(forecast.trainedAt)
        if age > staleAfter {
            let days = Int(age / 86_400)
            warnings.append(
                "the model was trained \(days) days ago (\(ISO8601Instant.string(from: forecast.trainedAt))) and retrains "
                    + "run nightly: is cron running 'pipeline retrain'? ('pipeline history --identifier ml-retrain' "
                    + "shows the latest)")
        }
        if !forecast.missingInputs.isEmpty {
            let names = forecast.missingInputs.joined(separator: ", ")
            let them = forecast.missingInputs.count == 1 ? "it" : "them"
            warnings.append(
                "\(forecast.day.adding(days: -1)) has no \(names) logged: the forecast imputes \(them) from the user's "
                    + "training means")
        }
        return warnings
    }
}
