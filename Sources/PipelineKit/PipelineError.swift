public import Ingestion
public import Learning
public import Storage

/// What a pipeline call can fail with. `description` tells a user what to do.
public enum PipelineError: Error, Sendable, CustomStringConvertible {
    /// A record is invalid; nothing of it was stored.
    case invalid(FieldError)
    /// Records of a batch were rejected (the lines and fields are in each error). In a strict batch
    /// nothing was stored; otherwise the others were.
    case rejected([IngestionError])
    /// The database failed.
    case storage(StorageError)
    /// The input could not be read.
    case input(IngestionError)
    /// A user that must exist does not.
    case unknownUser(String)
    /// An Apple Health export could not be read.
    case appleHealth(AppleHealthError)
    /// A model could not be trained or used; the previous model stays.
    case learning(LearningError)
    /// There is no model to use yet; `detail` says what to run.
    case noModel(String)
    /// The work was cancelled (a task past its budget); nothing half-done was kept.
    case cancelled

    public var description: String {
        switch self {
        case .invalid(let error): error.description
        case .rejected(let errors):
            "\(errors.count) record\(errors.count == 1 ? "" : "s") rejected"
                + (errors.first.map { "; first: \($0)" } ?? "")
        case .storage(let error): error.description
        case .input(let error): error.description
        case .unknownUser(let id): "no user '\(id)' in the database; ingest a record for them first"
        case .appleHealth(let error): error.description
        case .learning(let error): error.description
        case .noModel(let detail): detail
        case .cancelled: "cancelled before it finished; nothing half-done was kept"
        }
    }

    /// Bad data (exit 65), as opposed to a failure of the machine or the database.
    public var isBadData: Bool {
        switch self {
        case .invalid, .rejected: true
        case .appleHealth(let error): error.isBadData
        case .storage, .input, .unknownUser, .learning, .noModel, .cancelled: false
        }
    }

    /// The database cannot be written now: the disk under it is full or failing, or it is read-only
    /// (exit 74).
    public var isIOFailure: Bool {
        if case .storage(let error) = self { return error.cannotWrite }
        return false
    }

    /// The database's error, when the database failed.
    public var storageError: StorageError? {
        if case .storage(let error) = self { return error }
        return nil
    }

    /// The database is set up wrong and will stay so until a person changes it: a password, role or database
    /// the server refuses, a path that names no pipeline database (exit 78). The description says what to change.
    public var isConfiguration: Bool {
        if case .storage(let error) = self { return error.isConfiguration }
        return false
    }

    /// Worth retrying later: another process holds the database (exit 75).
    public var isTemporary: Bool {
        if case .storage(let error) = self { return error.isBusy }
        return false
    }
}

extension AppleHealthError {
    /// The file is not a readable Health export (exit 65), as opposed to missing or unreadable.
    var isBadData: Bool {
        switch self {
        case .malformedXML, .notAnExport, .zipWithoutExport, .zipOnStandardInput: true
        case .fileNotFound, .unreadable, .unzipMissing, .unzipFailed: false
        }
    }
}
