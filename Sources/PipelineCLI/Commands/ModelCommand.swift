import Domain
import Foundation
import Learning
import PipelineKit
import Storage

/// `pipeline model --user U`: the model a user is served, and why.
enum ModelCommand: Command {
    static let spec = CommandSpec(
        name: "model",
        abstract: "Show the model a user is served, its hold-out metrics and why it was promoted.",
        discussion: """
            A user is served their last promoted personal model, or the population model when no \
            personal model was promoted yet (fewer than 14 usable days, or no fit beat both baselines). \
            Coefficients are per standard deviation of each feature in the user's training days. The \
            last retrain is shown too when it was not promoted, with the reason.
            """,
        options: [.option("user", .user, help: "The user whose model to show.", required: true)],
        examples: [Example("As JSON", "pipeline model --user alice --json")])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let user = context.arguments.user("user")!
        let pipeline = try await LaunchSupport.open(context)
        guard try await pipeline.user(user) != nil else { throw PipelineError.unknownUser(user.rawValue) }
        let models = PersonalModels(pipeline: pipeline)
        guard let served = try await models.servedModel(for: user) else {
            throw PipelineError.noModel("no model has been trained yet; run 'pipeline retrain' first")
        }
        let history = try await pipeline.store.modelHistory(scope: user.rawValue, limit: 1)
        let latest = history.first.flatMap { $0.id == served.stored.id ? nil : $0 }
        let promotedForUser = served.stored.scope == user.rawValue
        let isPersonal = promotedForUser && served.artifact.source == .personal
        let reason = promotedForUser ? served.stored.reason : fallbackReason(latest)
        let artifact = served.artifact
        if context.json {
            var object = JSONObject()
            object["user"] = .string(user.rawValue)
            object["source"] = .string(isPersonal ? "personal" : "population")
            object["promoted"] = .bool(promotedForUser)
            object["reason"] = .string(reason)
            object["trainedAt"] = .string(ISO8601Instant.string(from: artifact.trainedAt))
            object["specVersion"] = .number(Double(artifact.specVersion))
            object["alpha"] = .number(artifact.severity.alpha)
            object["intercept"] = .number(artifact.severity.intercept)
            var coefficients = JSONObject()
            for (name, value) in zip(artifact.featureNames, artifact.severity.coefficients) {
                coefficients[name] = .number(value)
            }
            object["coefficients"] = .object(coefficients)
            object["metrics"] = metricsJSON(artifact.metrics)
            if let window = artifact.trainingWindow {
                object["trainingWindow"] = .object([
                    "first": .string(window.first.description), "last": .string(window.last.description),
                    "usableDays": .number(Double(window.usableDays)),
                ])
            }
            if let latest {
                object["lastRetrain"] = .object([
                    "trainedAt": .string(ISO8601Instant.string(from: latest.trainedAt)),
                    "promoted": .bool(latest.promoted),
                    "reason": .string(latest.reason),
                ])
            }
            context.io.stdout.writeLine(object.jsonText)
            return .ok
        }
        let out = context.io.stdout
        out.writeLine("user          \(user)")
        out.writeLine(
            "model         \(isPersonal ? "personal" : "population")"
                + (promotedForUser ? ", promoted" : ", served until a personal model is promoted"))
        out.writeLine("reason        \(reason)")
        out.writeLine(
            "trained at    \(ISO8601Instant.string(from: artifact.trainedAt)) (spec version \(artifact.specVersion))")
        if let window = artifact.trainingWindow {
            out.writeLine("training      \(window.first) to \(window.last), \(window.usableDays) usable days")
        }
        out.writeLine("alpha         \(format(artifact.severity.alpha))")
        out.writeLine("intercept     \(format(artifact.severity.intercept))")
        if let metrics = artifact.metrics {
            out.writeLine(
                "hold-out      \(metrics.first) to \(metrics.last), \(metrics.days) days: mean absolute error "
                    + "\(format(metrics.modelMAE)) (tomorrow = today \(format(metrics.persistenceMAE)), "
                    + "population \(format(metrics.populationMAE)))")
        }
        if let latest {
            out.writeLine("last retrain  \(ISO8601Instant.string(from: latest.trainedAt)): \(latest.reason)")
        }
        out.writeLine("coefficients  (per standard deviation of the feature)")
        let width = artifact.featureNames.map(\.count).max() ?? 0
        for (name, value) in zip(artifact.featureNames, artifact.severity.coefficients) {
            out.writeLine("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + signed(value))
        }
        return .ok
    }

    static func fallbackReason(_ latest: StoredModel?) -> String {
        guard let latest else { return "no personal model has been trained yet" }
        return "no personal model promoted yet; last retrain: \(latest.reason)"
    }

    static func metricsJSON(_ metrics: HoldoutMetrics?) -> JSONValue {
        guard let metrics else { return .null }
        var object = JSONObject()
        object["first"] = .string(metrics.first.description)
        object["last"] = .string(metrics.last.description)
        object["days"] = .number(Double(metrics.days))
        object["modelMAE"] = .number(metrics.modelMAE)
        object["persistenceMAE"] = .number(metrics.persistenceMAE)
        object["populationMAE"] = .number(metrics.populationMAE)
        if metrics.flareLogLoss.isFinite { object["flareLogLoss"] = .number(metrics.flareLogLoss) }
        if metrics.populationFlareLogLoss.isFinite {
            object["populationFlareLogLoss"] = .number(metrics.populationFlareLogLoss)
        }
        object["flareDays"] = .number(Double(metrics.flareDays))
        return .object(object)
    }

    static func format(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    static func signed(_ value: Double) -> String {
        String(format: "%+.4f", value)
    }
}
