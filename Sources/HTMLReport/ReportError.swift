public import PipelineKit

/// Why a report could not be written.
public enum ReportError: Error, Sendable, CustomStringConvertible {
    /// Reading the database failed.
    case pipeline(PipelineError)
    /// The output folder or a file in it could not be written.
    case output(path: String, problem: String)
    /// `--user` names a user the database does not have; said as the pipeline says it.
    case unknownUser(String)

    public var description: String {
        switch self {
        case .pipeline(let error): error.description
        case .output(let path, let problem): "cannot write the report to '\(path)': \(problem)"
        case .unknownUser(let id): PipelineError.unknownUser(id).description
        }
    }
}
