import Domain
public import Foundation

extension ModelArtifact {
    /// The artifact as stable JSON text: the same document `JSONEncoder` writes with sorted keys and
    /// ISO 8601 dates, built directly. A cohort retrain saves one artifact per user, and Foundation's
    /// encoder took longer than the fit itself (docs/benchmarks.md).
    public var jsonText: String {
        var object = JSONObject()
        // Keys in sorted order, as `.sortedKeys` writes them.
        if let bounds {
            object["bounds"] = .object(["lower": Self.numbers(bounds.lower), "upper": Self.numbers(bounds.upper)])
        }
        if let cohort { object["cohort"] = cohort.json }
        if let combination { object["combination"] = Self.weights(combination) }
        if let distribution {
            object["distribution"] = .object([
                "coverage": .number(distribution.coverage), "lower": .number(distribution.lower),
                "upper": .number(distribution.upper),
            ])
        }
        object["featureNames"] = .array(featureNames.map { .string($0) })
        object["flare"] = .object([
            "coefficients": Self.numbers(flare.coefficients), "fitted": .string(flare.fitted),
            "intercept": .number(flare.intercept), "inverseRegularization": .number(flare.inverseRegularization),
            "threshold": .number(flare.threshold),
        ])
        object["imputation"] = Self.numbers(imputation)
        if let metrics {
            var fields: JSONObject = [
                "days": .number(Double(metrics.days)), "first": .string(metrics.first.description),
                "flareDays": .number(Double(metrics.flareDays)), "flareLogLoss": .number(metrics.flareLogLoss),
                "last": .string(metrics.last.description), "modelMAE": .number(metrics.modelMAE),
                "persistenceMAE": .number(metrics.persistenceMAE),
                "populationFlareLogLoss": .number(metrics.populationFlareLogLoss),
                "populationMAE": .number(metrics.populationMAE),
            ]
            if let smoothing = metrics.smoothingMAE { fields["smoothingMAE"] = .number(smoothing) }
            object["metrics"] = .object(fields)
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
        // Room for a whole artifact (about 7 KB with a selection record), so the text is not copied as it grows.
        var text = JSONText()
        text.bytes.reserveCapacity(8192)
        JSONValue.object(object).write(to: &text)
        return text.string
    }

    static func numbers(_ values: [Double]) -> JSONValue {
        .array(values.map { .number($0) })
    }

    static func weights(_ weights: [CombinationWeight]) -> JSONValue {
        .array(weights.map { .object(["candidate": .string($0.candidate.rawValue), "weight": .number($0.weight)]) })
    }
}

extension CohortSettings {
    /// The settings as the population artifact's JSON holds them (sorted keys).
    var json: JSONValue {
        .object([
            "days": .number(Double(days)), "errorQuantiles": ModelArtifact.numbers(errorQuantiles),
            "intervalLevel": .number(intervalLevel), "priorErrors": ModelArtifact.numbers(priorErrors),
            "priorPseudoDays": .number(priorPseudoDays), "scales": ModelArtifact.weights(scales),
            "smoothing": .number(smoothing), "smoothingErrors": ModelArtifact.numbers(smoothingErrors),
            "users": .number(Double(users)), "weights": ModelArtifact.weights(weights),
            "weightsWithoutPersonal": ModelArtifact.weights(weightsWithoutPersonal),
        ])
    }

    fileprivate init?(_ object: JSONObject) {
        guard let days = object["days"]?.intValue, let errorQuantiles = object["errorQuantiles"]?.numbersValue,
            let intervalLevel = object["intervalLevel"]?.numberValue,
            let priorErrors = object["priorErrors"]?.numbersValue,
            let priorPseudoDays = object["priorPseudoDays"]?.numberValue,
            let scales = JSON.weights(object["scales"]), let smoothing = object["smoothing"]?.numberValue,
            let smoothingErrors = object["smoothingErrors"]?.numbersValue, let users = object["users"]?.intValue,
            let weights = JSON.weights(object["weights"]),
            let weightsWithoutPersonal = JSON.weights(object["weightsWithoutPersonal"])
        else { return nil }
        self.init(
            smoothing: smoothing, priorPseudoDays: priorPseudoDays, weights: weights,
            weightsWithoutPersonal: weightsWithoutPersonal, scales: scales, errorQuantiles: errorQuantiles,
            intervalLevel: intervalLevel, users: users, days: days, smoothingErrors: smoothingErrors,
            priorErrors: priorErrors)
    }
}

extension ForecastDistribution {
    fileprivate init?(_ object: JSONObject) {
        guard let coverage = object["coverage"]?.numberValue, let lower = object["lower"]?.numberValue,
            let upper = object["upper"]?.numberValue
        else { return nil }
        self.init(lower: lower, upper: upper, coverage: coverage)
    }
}

extension ModelArtifact {
    /// Reads `jsonData()`, or any artifact `JSONEncoder` wrote with ISO 8601 dates: members in any order,
    /// unknown members ignored, optional ones absent or `null`. Built directly on the strict parser, as
    /// `jsonText` is: a retrain reads every user's serving artifact, and Foundation's decoder took a
    /// large share of a whole retrain (docs/benchmarks.md).
    public init(json: Data) throws(LearningError) {
        let parsed = [UInt8](json).withUnsafeBufferPointer { bytes in
            Result { () throws(JSONSyntaxError) in try JSONParser().parse(bytes) }
        }
        guard case .success(let value) = parsed, let object = value.objectValue, let artifact = Self(object) else {
            throw .invalidArtifact(problem: "not a model artifact JSON")
        }
        self = artifact
    }

    private init?(_ object: JSONObject) {
        guard let specName = object["specName"]?.stringValue, let specVersion = object["specVersion"]?.intValue,
            let source = object["source"]?.stringValue.flatMap(ModelSource.init(rawValue:)),
            let featureNames = JSON.strings(object["featureNames"]),
            let imputation = object["imputation"]?.numbersValue,
            let standardization = object["standardization"]?.objectValue,
            let means = standardization["means"]?.numbersValue, let scales = standardization["scales"]?.numbersValue,
            let severity = object["severity"]?.objectValue.flatMap(SeverityHead.init),
            let flare = object["flare"]?.objectValue.flatMap(FlareHead.init),
            let trainedAt = object["trainedAt"]?.stringValue.flatMap(ISO8601Instant.date(from:)),
            let promoted = object["promoted"]?.boolValue, let reason = object["reason"]?.stringValue
        else { return nil }
        self.specName = specName
        self.specVersion = specVersion
        self.source = source
        self.featureNames = featureNames
        self.imputation = imputation
        self.standardization = Standardization(means: means, scales: scales)
        self.severity = severity
        self.flare = flare
        self.trainedAt = trainedAt
        self.promoted = promoted
        self.reason = reason
        guard let user = JSON.optional(object["user"], \.stringValue),
            let bounds = JSON.optional(object["bounds"], { $0.objectValue.flatMap(FeatureBounds.init) }),
            let metrics = JSON.optional(object["metrics"], { $0.objectValue.flatMap(HoldoutMetrics.init) }),
            let selection = JSON.optional(object["selection"], { $0.objectValue.flatMap(SelectionRecord.init) }),
            let pooledUsers = JSON.optional(object["pooledUsers"], \.intValue),
            let trainingWindow = JSON.optional(
                object["trainingWindow"], { $0.objectValue.flatMap(TrainingWindow.init) }),
            let combination = JSON.optional(object["combination"], { JSON.weights($0) }),
            let distribution = JSON.optional(
                object["distribution"], { $0.objectValue.flatMap(ForecastDistribution.init) }),
            let cohort = JSON.optional(object["cohort"], { $0.objectValue.flatMap(CohortSettings.init) })
        else { return nil }
        self.combination = combination
        self.distribution = distribution
        self.cohort = cohort
        self.user = user
        self.bounds = bounds
        self.metrics = metrics
        self.selection = selection
        self.pooledUsers = pooledUsers
        self.trainingWindow = trainingWindow
    }
}

extension ModelArtifact.SeverityHead {
    fileprivate init?(_ object: JSONObject) {
        guard let coefficients = object["coefficients"]?.numbersValue, let intercept = object["intercept"]?.numberValue,
            let alpha = object["alpha"]?.numberValue,
            let shrunkToward = JSON.optional(object["shrunkToward"], { $0.stringValue.flatMap(ModelSource.init) })
        else { return nil }
        self.init(coefficients: coefficients, intercept: intercept, alpha: alpha, shrunkToward: shrunkToward)
    }
}

extension ModelArtifact.FlareHead {
    fileprivate init?(_ object: JSONObject) {
        guard let coefficients = object["coefficients"]?.numbersValue, let intercept = object["intercept"]?.numberValue,
            let threshold = object["threshold"]?.numberValue,
            let inverseRegularization = object["inverseRegularization"]?.numberValue,
            let fitted = object["fitted"]?.stringValue
        else { return nil }
        self.init(
            coefficients: coefficients, intercept: intercept, threshold: threshold,
            inverseRegularization: inverseRegularization, fitted: fitted)
    }
}

extension ModelArtifact.FeatureBounds {
    fileprivate init?(_ object: JSONObject) {
        guard let lower = object["lower"]?.numbersValue, let upper = object["upper"]?.numbersValue else { return nil }
        self.init(lower: lower, upper: upper)
    }
}

extension ModelArtifact.TrainingWindow {
    fileprivate init?(_ object: JSONObject) {
        guard let first = object["first"]?.dayValue, let last = object["last"]?.dayValue,
            let usableDays = object["usableDays"]?.intValue
        else { return nil }
        self.init(first: first, last: last, usableDays: usableDays)
    }
}

extension HoldoutMetrics {
    fileprivate init?(_ object: JSONObject) {
        guard let first = object["first"]?.dayValue, let last = object["last"]?.dayValue,
            let days = object["days"]?.intValue, let modelMAE = object["modelMAE"]?.numberValue,
            let persistenceMAE = object["persistenceMAE"]?.numberValue,
            let populationMAE = object["populationMAE"]?.numberValue,
            let flareLogLoss = object["flareLogLoss"]?.numberValue,
            let populationFlareLogLoss = object["populationFlareLogLoss"]?.numberValue,
            let flareDays = object["flareDays"]?.intValue,
            let smoothingMAE = JSON.optional(object["smoothingMAE"], \.numberValue)
        else { return nil }
        self.init(
            first: first, last: last, days: days, modelMAE: modelMAE, persistenceMAE: persistenceMAE,
            populationMAE: populationMAE, smoothingMAE: smoothingMAE, flareLogLoss: flareLogLoss,
            populationFlareLogLoss: populationFlareLogLoss, flareDays: flareDays)
    }
}

extension SelectionRecord {
    fileprivate init?(_ object: JSONObject) {
        guard let first = JSON.optional(object["first"], \.dayValue),
            let last = JSON.optional(object["last"], \.dayValue),
            let days = object["days"]?.intValue, let folds = object["folds"]?.intValue,
            let severity = JSON.objects(
                object["severity"],
                { object -> CandidateScore? in
                    guard let candidate = object["candidate"]?.stringValue,
                        let error = object["meanAbsoluteError"]?.numberValue
                    else { return nil }
                    return CandidateScore(candidate: candidate, meanAbsoluteError: error)
                }),
            let flare = JSON.objects(
                object["flare"],
                { object -> FlareCandidateScore? in
                    guard let candidate = object["candidate"]?.stringValue,
                        let logLoss = object["logLoss"]?.numberValue,
                        let brier = object["brier"]?.numberValue
                    else { return nil }
                    return FlareCandidateScore(candidate: candidate, logLoss: logLoss, brier: brier)
                }),
            let severityWinner = object["severityWinner"]?.stringValue.flatMap(ModelSource.init),
            let flareWinner = object["flareWinner"]?.stringValue,
            let calibration = object["calibration"]?.objectValue,
            let intercept = calibration["intercept"]?.numberValue, let slope = calibration["slope"]?.numberValue,
            let reason = object["reason"]?.stringValue
        else { return nil }
        self.init(
            first: first, last: last, days: days, folds: folds, severity: severity, flare: flare,
            severityWinner: severityWinner, flareWinner: flareWinner,
            calibration: Calibration(intercept: intercept, slope: slope), reason: reason)
    }
}

/// Typed reads of parsed JSON members, `nil` when a member is missing or of another type.
private enum JSON {
    static func strings(_ value: JSONValue?) -> [String]? {
        array(value, \.stringValue)
    }

    static func weights(_ value: JSONValue?) -> [CombinationWeight]? {
        objects(value) { object in
            guard let candidate = object["candidate"]?.stringValue.flatMap(CombinationCandidate.init),
                let weight = object["weight"]?.numberValue
            else { return nil }
            return CombinationWeight(candidate: candidate, weight: weight)
        }
    }

    static func objects<T>(_ value: JSONValue?, _ read: (JSONObject) -> T?) -> [T]? {
        array(value) { $0.objectValue.flatMap(read) }
    }

    /// An array member whose every item `read` reads.
    static func array<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) -> [T]? {
        guard case .array(let items)? = value else { return nil }
        var values: [T] = []
        for item in items {
            guard let value = read(item) else { return nil }
            values.append(value)
        }
        return values
    }

    /// An optional member: `.some(nil)` when it is absent or `null`, `nil` when it is present but unreadable.
    static func optional<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) -> T?? {
        guard let value, value != .null else { return .some(nil) }
        return read(value).map { .some($0) }
    }
}
