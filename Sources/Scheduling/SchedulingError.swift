public import Storage

/// What the scheduler can fail with. Registration errors name the identifier, as iOS's
/// `BGTaskScheduler` does when it refuses one.
public enum SchedulingError: Error, Sendable, CustomStringConvertible {
    /// The identifier is not in the scheduler's permitted list (iOS: `BGTaskSchedulerPermittedIdentifiers`).
    case notPermitted(TaskIdentifier)
    /// A handler for the identifier is already registered (iOS terminates the app for this).
    case alreadyRegistered(TaskIdentifier)
    /// `register` was called after the launch completed its registrations.
    case registeredAfterLaunch(TaskIdentifier)
    /// A scheduler launches once; make a new one for the next launch.
    case alreadyLaunched
    /// The configuration's `pendingRequestLimit` for the request's kind is reached by other pending
    /// requests (iOS: `BGTaskScheduler.Error.Code.tooManyPendingTaskRequests`).
    case tooManyPendingTaskRequests(TaskIdentifier, kind: TaskKind, limit: Int)
    /// A registered task's first request could not be made for a scope.
    case chainStartFailed(TaskIdentifier, scope: TaskScope, reason: String)
    /// The database failed.
    case storage(StorageError)

    public var description: String {
        switch self {
        case .notPermitted(let identifier):
            "task identifier '\(identifier)' is not permitted; add it to the scheduler's permitted identifiers"
        case .alreadyRegistered(let identifier):
            "a handler for task identifier '\(identifier)' is already registered; register each identifier once"
        case .registeredAfterLaunch(let identifier):
            "task identifier '\(identifier)' was registered after the launch completed; "
                + "register every handler inside the launch's registration closure"
        case .alreadyLaunched:
            "this scheduler has already launched; create a new one for each launch"
        case .tooManyPendingTaskRequests(let identifier, let kind, let limit):
            "could not submit '\(identifier)': \(limit) \(kind) request\(limit == 1 ? " is" : "s are") already pending, "
                + "the most allowed at once (tooManyPendingTaskRequests)"
        case .chainStartFailed(let identifier, let scope, let reason):
            "could not start the chain of '\(identifier)' for \(scope): \(reason)"
        case .storage(let error):
            error.description
        }
    }

    /// `submit` refused the request for the pending-request limit.
    public var isTooManyPending: Bool {
        if case .tooManyPendingTaskRequests = self { return true }
        return false
    }

    /// Worth retrying later: another process holds the database.
    public var isTemporary: Bool {
        if case .storage(let error) = self { return error.isBusy }
        return false
    }
}
