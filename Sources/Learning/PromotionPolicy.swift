internal import Foundation

/// Whether a newly trained personal model replaces the one serving, decided from its hold-out metrics
/// alone, so the rule is a pure function a test can state and storage can apply atomically.
///
/// The rule (DESIGN §5): promote only when the new model's hold-out MAE is strictly lower than both the
/// persistence forecast's ("tomorrow = today") and the population model's on the same days. Without a
/// hold-out there is no evidence, so no promotion. The flare head's log-loss is recorded, not judged.
public enum PromotionPolicy {
    public static func decide(_ metrics: HoldoutMetrics?) -> (promoted: Bool, reason: String) {
        guard let metrics else {
            return (false, "not promoted: no usable day in the hold-out window, so the current model keeps serving")
        }
        let model = format(metrics.modelMAE)
        let persistence = format(metrics.persistenceMAE)
        let population = format(metrics.populationMAE)
        let days = metrics.days == 1 ? "1 held-out day" : "\(metrics.days) held-out days"
        let beatsPersistence = metrics.modelMAE < metrics.persistenceMAE
        let beatsPopulation = metrics.modelMAE < metrics.populationMAE
        switch (beatsPersistence, beatsPopulation) {
        case (true, true):
            return (
                true,
                "promoted: mean absolute error \(model) beats tomorrow-equals-today (\(persistence)) and the "
                    + "population model (\(population)) over \(days)"
            )
        case (false, true):
            return (
                false,
                "not promoted: mean absolute error \(model) does not beat tomorrow-equals-today (\(persistence)) "
                    + "over \(days)"
            )
        case (true, false):
            return (
                false,
                "not promoted: mean absolute error \(model) does not beat the population model (\(population)) "
                    + "over \(days)"
            )
        case (false, false):
            return (
                false,
                "not promoted: mean absolute error \(model) beats neither tomorrow-equals-today (\(persistence)) "
                    + "nor the population model (\(population)) over \(days)"
            )
        }
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
