import Domain
import PipelineKit
import Storage

/// An error that knows how `pipeline` reports it: the exit status and a one-line message for
/// stderr. Each module's error enum is adapted here, in one place, so that status codes stay
/// consistent across commands; an error that is not adapted exits with status 1 and its
/// `description`.
///
/// A `message` is read by people and cron mail: it says what is wrong and what to do, and never
/// contains a health value.
protocol CLIReportableError: Error {
    var exitStatus: ExitStatus { get }
    var message: String { get }
}

extension DomainError: CLIReportableError {
    var exitStatus: ExitStatus { .dataError }
    var message: String { description }
}

extension PipelineError: CLIReportableError {
    var exitStatus: ExitStatus {
        if isBadData { return .dataError }
        if isIOFailure { return .ioError }
        if isConfiguration { return .configuration }
        if isTemporary { return .temporaryFailure }
        return .failure
    }

    /// The library's words, and the command that fixes it.
    var message: String {
        switch self {
        case .storage(let error): error.message
        case .noModel: description + " ('pipeline retrain --force' retrains now; add --user for one user)"
        default: description
        }
    }
}

/// Storage errors that reach a command without passing through `Pipeline`: `pipeline copy`'s (`DatabaseCopy`),
/// which moves rows between two databases rather than working on one.
extension StorageError: CLIReportableError {
    var exitStatus: ExitStatus {
        if cannotWrite { return .ioError }
        if isConfiguration { return .configuration }
        if isBusy { return .temporaryFailure }
        if case .copyTargetNotEmpty = self { return .dataError }
        // A value of the source the target cannot hold (a copy's only such error).
        if isRecordRefusal { return .dataError }
        return .failure
    }

    /// The library speaks of a path or a URL; a command's comes from `--db` or `PIPELINE_DB`, and some
    /// problems have a command that fixes them.
    var message: String {
        switch self {
        case .noDatabase:
            description + " with 'pipeline init' (it creates the database --db or PIPELINE_DB names)"
        case .cannotOpen, .notAPipelineDatabase, .cannotConnect:
            description + " (the database is --db or PIPELINE_DB)"
        case .newerSchema:
            description + "; 'pipeline --version' shows this build's version"
        case .sqlite where isConfiguration:
            description + " (the database is --db or PIPELINE_DB)"
        case .postgresql where isReadOnly:
            description + " (the database is --db or PIPELINE_DB)"
        default:
            description
        }
    }
}
