import Domain
import Foundation

extension ModelArtifact {
    /// The artifact as stable JSON text: the same document `JSONEncoder` writes with sorted keys and
    /// ISO 8601 dates, built directly. A cohort retrain saves one artifact per user, and Foundation's
    /// encoder took longer than the fit itself.
    public var jsonText: String {
        var object = JSONObject()
        // Keys in sorted order, as `.sortedKeys` writes them.
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
        object["promoted"] = .bool(promoted)
        object["reason"] = .string(reason)
        var head: JSONObject = [
            "alpha": .number(severity.alpha), "coefficients": Self.numbers(severity.coefficients),
            "intercept": .number(severity.intercept),
        ]
        if let toward = severity.shrunkToward { head["shrunkToward"] = .string(toward.rawValue) }
        object["severity"] = .object(head)
        object["source"] = .string(source.rawValue)
        object["specName"] = .string(specName)
        object["specVersion"] = .number(Double(specVersion))
        object["standardization"] = .object([
            "means": Self.numbers(standardization.means), "scales": Self.numbers(standardization.scales),
        ])
        object["trainedAt"] = .string(Self.iso8601(trainedAt))
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

    /// `2026-11-29T12:00:00Z`: whole seconds in UTC, as `.iso8601` writes them.
    static func iso8601(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let day = Day(ordinal: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let second = seconds - day.ordinal * 86_400
        func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(day)T\(pad(second / 3600)):\(pad(second / 60 % 60)):\(pad(second % 60))Z"
    }
}
