public import Domain
public import Storage

/// What the database holds, as it is stored, for reports and operators (`pipeline report`, `model`, `copy`):
/// the CLI and the report read it here, never through a `Store` of their own.
extension Pipeline {
    /// Where the database is, fit to print: a file path, or a PostgreSQL URL without its password.
    public var location: String { store.location }

    /// Whether the database is an SQLite file (which a command may remove when it created it and stored nothing).
    public var isFile: Bool { store.backend == .sqlite }

    /// The scope's model artifacts (a user's id, or `StoredModel.populationScope`), newest first, promoted or not.
    public func modelHistory(scope: String, limit: Int = Store.modelHistoryLimit) async throws(PipelineError)
        -> [StoredModel]
    {
        try await storage { (store) throws(StorageError) in try await store.modelHistory(scope: scope, limit: limit) }
    }

    /// The artifact served for `scope`, or `nil` when none was ever promoted.
    public func servingModel(scope: String) async throws(PipelineError) -> StoredModel? {
        try await storage { (store) throws(StorageError) in try await store.servingModel(scope: scope) }
    }

    /// Every run of the history as stored, oldest first, with the runs in progress.
    public func taskRunRecords() async throws(PipelineError) -> [TaskRunRecord] {
        try await storage { (store) throws(StorageError) in try await store.taskRuns(includeUnfinished: true) }
    }

    /// Every request as stored, pending and running, by when it may begin.
    public func taskRequestRecords() async throws(PipelineError) -> [TaskRequestRecord] {
        try await storage { (store) throws(StorageError) in try await store.taskRequests() }
    }
}

/// `pipeline copy`: every row of one database into an empty one, ids kept, between SQLite and PostgreSQL either
/// way (`Store.copy`). Errors are the databases' own: a target holding data is `StorageError.copyTargetNotEmpty`,
/// and changes nothing.
public struct DatabaseCopy: Sendable {
    let source: Store
    let target: Store

    /// Opens the database at `source`, which must exist, and the one at `target` (created if absent).
    public init(from source: String, to target: String, clock: any Clock) throws(StorageError) {
        self.source = try Store.existing(source, clock: clock)
        self.target = try Store(path: target, clock: clock)
    }

    /// Where the two databases are, fit to print.
    public var from: String { source.location }
    public var to: String { target.location }

    /// Copies every table, `pageSize` rows at a time, calling `progress` with each table and its rows so far, and
    /// `counted` first with the rows of every table together.
    public func run(
        pageSize: Int = 5_000, progress: (@Sendable (CopyTable, Int) -> Void)? = nil,
        counted: (@Sendable (Int) -> Void)? = nil
    ) async throws(StorageError) -> [CopiedTable] {
        try await Store.copy(from: source, to: target, pageSize: pageSize, progress: progress, counted: counted)
    }
}
