import Domain
import Foundation
import HTMLReport
import Learning
import PipelineKit
import Storage

/// `pipeline model --user U`: the model a user is served, and why.
enum ModelCommand: Command {
    static let spec = CommandSpec(
        name: "model",
        abstract: "Show the model a user is served, every candidate's score and why it won.",
        discussion: """
            Each retrain scores the candidates (the personal model, the model serving until then, the \
            population model, exponential smoothing of the user's severities, their long-run level, \
            tomorrow-equals-today and the 7-day mean) on rolling-origin folds over the last 84 days, and \
            serves a combination of smoothing, the long-run level, the population model and the personal \
            model (model: combined), its weights fitted on those folds and held toward the cohort's; the \
            80% interval comes from the combination's errors out of fold. The flare head is chosen and \
            calibrated on its own. A user never retrained is served the population model. "served" \
            names it as 'pipeline report' does: a combination by the candidate it weighs most \
            ("combination, mostly smoothing"), or the population model. Coefficients are per standard \
            deviation of each feature in the user's training days.
            """,
        options: [.option("user", .user, help: "The user whose model to show.", required: true)],
        examples: [Example("As JSON", "pipeline model --user alice --json")])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let user = context.arguments.user("user")!
        let pipeline = try await context.openPipeline()
        guard try await pipeline.user(user) != nil else { throw PipelineError.unknownUser(user.rawValue) }
        let models = PersonalModels(pipeline: pipeline)
        guard let served = try await models.servedModel(for: user) else {
            throw PipelineError.noModel("no model has been trained yet; run 'pipeline retrain' first")
        }
        let history = try await pipeline.modelHistory(scope: user.rawValue, limit: 1)
        let latest = history.first.flatMap { $0.id == served.stored.id ? nil : $0 }
        let promotedForUser = served.stored.scope == user.rawValue
        let kind = promotedForUser ? served.artifact.source.rawValue : ModelSource.population.rawValue
        let reason = promotedForUser ? served.stored.reason : fallbackReason(latest)
        let artifact = served.artifact
        // What serves the user in the report's words: a combination by the candidate it weighs most.
        let serving = ServedModelKind(artifact: artifact, ownArtifact: promotedForUser).label
        if context.json {
            var object = JSONObject()
            object["user"] = .string(user.rawValue)
            object["source"] = .string(kind)
            object["served"] = .string(serving)
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
            object["combination"] = .array(
                (artifact.combination ?? []).map {
                    .object(["candidate": .string($0.candidate.rawValue), "weight": .number($0.weight)])
                })
            object["interval"] =
                artifact.distribution.map {
                    .object([
                        "lower": .number($0.lower), "upper": .number($0.upper), "coverage": .number($0.coverage),
                    ])
                } ?? .null
            object["selection"] = artifact.selection?.json ?? .null
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
            "model         \(kind)" + (promotedForUser ? ", selected" : ", served until the user's first retrain"))
        out.writeLine("served        \(serving)")
        out.writeLine("reason        \(reason)")
        out.writeLine(
            "trained at    \(ISO8601Instant.string(from: artifact.trainedAt)) (spec version \(artifact.specVersion))")
        if let window = artifact.trainingWindow {
            out.writeLine("training      \(window.first) to \(window.last), \(window.usableDays) usable days")
        }
        if let weights = artifact.combination {
            let named = weights.map { "\($0.candidate.rawValue) \(String(format: "%.2f", $0.weight))" }
            out.writeLine("combination   \(named.joined(separator: ", "))")
        }
        if let distribution = artifact.distribution {
            out.writeLine(
                "interval      \(Int((distribution.coverage * 100).rounded()))%: the forecast \(signed(distribution.lower)) "
                    + "to \(signed(distribution.upper)), each end rounded to a whole number")
        }
        out.writeLine("alpha         \(format(artifact.severity.alpha))")
        out.writeLine("intercept     \(format(artifact.severity.intercept))")
        if let metrics = artifact.metrics {
            out.writeLine(
                "hold-out      \(metrics.first) to \(metrics.last), \(metrics.days) days: mean absolute error "
                    + "\(format(metrics.modelMAE)) (tomorrow = today \(format(metrics.persistenceMAE)), "
                    + (metrics.smoothingMAE.map { "exponential smoothing \(format($0)), " } ?? "")
                    + "population \(format(metrics.populationMAE)))")
        }
        if let selection = artifact.selection {
            let scores = selection.severity.map { "\($0.candidate) \(format($0.meanAbsoluteError))" }
            out.writeLine(
                "candidates    mean absolute error over \(selection.days) days in \(selection.folds) folds: "
                    + scores.joined(separator: ", "))
            let flares = selection.flare.map { "\($0.candidate) \(format($0.logLoss))" }
            out.writeLine(
                "flare head    \(selection.flareWinner), log-loss: \(flares.joined(separator: ", ")); calibration "
                    + "slope \(format(selection.calibration.slope)), intercept \(format(selection.calibration.intercept))"
            )
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
        guard let latest else { return "the user has not been retrained yet" }
        return "last retrain: \(latest.reason)"
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
        if let smoothing = metrics.smoothingMAE { object["smoothingMAE"] = .number(smoothing) }
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
