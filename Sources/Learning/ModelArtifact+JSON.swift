import Domain
import Foundation

extension ModelArtifact {
    /// The artifact as stable JSON text: the same document `JSONEncoder` writes with sorted keys and
    /// ISO 8601 dates, built directly. A cohort retrain saves one artifact per user, and Foundation's
    /// encoder took longer than the fit itself.
    public var jsonText: String {
        var object = JSONObject()
        // Keys in sorted order, as `.sortedKeys` writes them.
        if let bounds {
            object["bounds"] = .object(["lower": Self.numbers(bounds.lower), "upper": Self.numbers(bounds.upper)])
        }
        object["featureNames"] = .array(featureNames.map { .string($0) })
        object["flare"] = .object([
            "coefficients": Self.numbers(flare.coefficients), "fitted": .string(flare.fitted),
            "intercept": .number(flare.intercept), "inverseRegularization": .number(flare.inverseRegularization),
            "threshold": .number(flare.threshold),
        ])
        object["imputation"] = Self.numbers(imputation)
        if let metrics {
            object["metrics"] = .object([
                "days": .number(Double(metrics.days)), "first": .string(metrics.first.description),
                "flareDays": .number(Double(metrics.flareDays)), "flareLogLoss": .number(metrics.flareLogLoss),
                "last": .string(metrics.last.description), "modelMAE": .number(metrics.modelMAE),
                "persistenceMAE": .number(metrics.persistenceMAE),
                "populationFlareLogLoss": .number(metrics.populationFlareLogLoss),
                "populationMAE": .number(metrics.populationMAE),
            ])
        }
        if let pooledUsers { object["pooledUsers"] = .number(Double(pooledUsers)) }
        object["promoted"] = .bool(promoted)
        object["reason"] = .string(reason)
        var head: JSONObject = [
            "alpha": .number(severity.alpha), "coefficients": Self.numbers(severity.coefficients),
            "intercept": .number(severity.intercept),
        ]
        if let toward = severity.shrunkToward { head["shrunkToward"] = .string(toward.rawValue) }
        if let selection { object["selection"] = selection.json }
        object["severity"] = .object(head)
        object["source"] = .string(source.rawValue)
        object["specName"] = .string(specName)
        object["specVersion"] = .number(Double(specVersion))
        object["standardization"] = .object([
            "means": Self.numbers(standardization.means), "scales": Self.numbers(standardization.scales),
        ])
        object["trainedAt"] = .string(ISO8601Instant.string(from: trainedAt))
        if let trainingWindow {
            object["trainingWindow"] = .object([
                "first": .string(trainingWindow.first.description), "last": .string(trainingWindow.last.description),
                "usableDays": .number(Double(trainingWindow.usableDays)),
            ])
        }
        if let user { object["user"] = .string(user) }
        return object.jsonText
    }

    private static func numbers(_ values: [Double]) -> JSONValue {
        .array(values.map { .number($0) })
    }
}
