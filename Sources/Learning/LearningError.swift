/// Why a model could not be specified, fitted or used. Each `description` says what to do about it.
public enum LearningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model spec JSON is malformed or inconsistent; `problem` names the part.
    case invalidSpec(problem: String)
    /// A matrix that must be positive definite is not (LAPACK `info` > 0): its leading minor of
    /// order `minor` is not positive. In a fit this means a degenerate design, e.g. a zero penalty.
    case notPositiveDefinite(order: Int, minor: Int)
    /// The symmetric eigensolver did not converge (`dsyevd` `info` > 0).
    case eigenSolverFailed(order: Int, info: Int)
    /// A fit met a value that is not a finite number, in its input or in its result.
    case nonFiniteValues(stage: String)
    /// An artifact was made with another spec than the one it is used with.
    case specMismatch(artifact: String, spec: String)
    /// A stored model artifact could not be read.
    case invalidArtifact(problem: String)
    /// A features CSV could not be read; `line` is 1-based.
    case malformedCSV(line: Int, problem: String)

    public var description: String {
        switch self {
        case .invalidSpec(let problem):
            "The model spec is invalid: \(problem). Fix Models/symptom-forecast.json and raise its version."
        case .notPositiveDefinite(let order, let minor):
            "A \(order)×\(order) matrix is not positive definite (leading minor \(minor)); the fit was not used. "
                + "Check the penalty is positive and the inputs are finite."
        case .eigenSolverFailed(let order, let info):
            "The eigensolver did not converge on a \(order)×\(order) matrix (info \(info)); the fit was not used. "
                + "Check the inputs for extreme values."
        case .nonFiniteValues(let stage):
            "A value that is not a finite number appeared in \(stage); the fit was not used. "
                + "Check the user's logs for corrupt values."
        case .specMismatch(let artifact, let spec):
            "The model was made with spec \(artifact) but the running spec is \(spec). Retrain the user's model."
        case .invalidArtifact(let problem):
            "The stored model could not be read (\(problem)). Retrain the user's model."
        case .malformedCSV(let line, let problem):
            "Features CSV line \(line): \(problem). Export the matrix again with `pipeline features`."
        }
    }
}
