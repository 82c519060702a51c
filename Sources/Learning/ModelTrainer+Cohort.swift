import Domain

extension ModelTrainer {
    /// Fits every matrix with `ModelTrainer.fit` on `workers` concurrent tasks, each with its own trainer and
    /// scratch buffers (one OpenBLAS thread per fit). Each worker takes the next matrix not yet taken, so a
    /// worker slowed by anything else on its core leaves more of the matrices to the others instead of
    /// holding up the end. Results are in input order. A bench command times this with `workers: 1` and with
    /// one worker per core, against scripts/reference/bench_sklearn.py on the same exported matrices.
    public static func fitAll(
        _ designs: [DesignMatrix], workers: Int, spec: ModelSpec = .symptomForecast
    ) async throws(LearningError) -> [FitSummary] {
        precondition(workers >= 1, "at least one worker")
        let next = Locked(0)
        let partial = await withTaskGroup(of: [(Int, Result<FitSummary, LearningError>)].self) { group in
            for _ in 0..<workers {
                group.addTask {
                    var trainer = ModelTrainer(spec: spec)
                    var results: [(Int, Result<FitSummary, LearningError>)] = []
                    while true {
                        let index = next.withLock { next in
                            defer { next += 1 }
                            return next
                        }
                        guard index < designs.count else { break }
                        results.append((index, Result { () throws(LearningError) in try trainer.fit(designs[index]) }))
                    }
                    return results
                }
            }
            var all: [(Int, Result<FitSummary, LearningError>)] = []
            for await results in group { all.append(contentsOf: results) }
            return all
        }
        var ordered = [FitSummary?](repeating: nil, count: designs.count)
        for (index, result) in partial { ordered[index] = try result.get() }
        return ordered.map { $0! }
    }
}
