public import PipelineKit

/// Why a report could not be written.
public enum ReportError: Error, Sendable, CustomStringConvertible {
    /// Reading the database failed.
    case pipeline(PipelineError)
    /// The output folder or a file in it could not be written.
    case output(path: String, problem: String)
    /// `--user` names a user the database does not have.
    case unknownUser(String)

    public var description: String {
        switch self {
        case .pipeline(let error): error.description
        case .output(let path, let problem): "cannot write the report to '\(path)': \(problem)"
        case .unknownUser(let id): "no user '\(id)' in the database; ingest a record for them first"
        }
    }
}
