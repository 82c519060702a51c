public import Domain
public import Foundation
public import Storage

/// The BGTaskScheduler port, made durable: requests, leases and run history live in the database,
/// so overlapping launches on one machine (or, later, many) share them.
///
/// A scheduler serves one launch: `launch(_:registering:)` registers the handlers, completes the
/// launch, starts every registered chain, then claims and runs what is due. Registering is possible
/// only inside that call, so no code path can register handlers without submitting their first
/// requests (DESIGN §8, bug 1). `submit`, `pendingRequests`, `cancel` and `history` work at any time.
///
/// ```swift
/// let scheduler = TaskScheduler(store: store, permittedIdentifiers: ["cleanup"], clock: SystemClock())
/// let report = try await scheduler.launch { registrar throws(SchedulingError) in
///     try registrar.register("cleanup", for: .global, startingWith: { scope, _ in
///         AppRefreshTaskRequest(identifier: "cleanup", scope: scope)
///     }) { task in
///         try? await task.scheduler.submit(
///             AppRefreshTaskRequest(identifier: "cleanup", earliestBeginDate: Date() + 3600), policy: .replace)
///         task.expirationHandler = { /* stop */ }
///         task.setTaskCompleted(success: true)
///     }
/// }
/// ```
public final class TaskScheduler: Sendable {
    public let store: Store
    /// Identifiers that may be registered and submitted.
    public let permittedIdentifiers: Set<TaskIdentifier>
    public let configuration: SchedulerConfiguration
    /// Must be the clock `store` was opened with: the store stamps submissions and leases with it.
    public let clock: any Clock
    public let conditions: any ConditionsProvider
    public let timer: any ExpiryTimer
    /// This scheduler's name as a lease owner: `host:pid:tag`, unique across processes.
    public let worker: String
    let log: any LogSink
    let registry = Locked(Registry())

    struct Registration: Sendable {
        var identifier: TaskIdentifier
        var scope: ChainScope
        var chainStart: ChainStart
        var handler: TaskHandler
        /// The time between runs, for counting the periods a late run covers and for status.
        var cadence: TimeInterval?
        var prepare: BatchPreparation?
        var prepareChainStarts: BatchPreparation?
    }

    struct Registry: Sendable {
        var registrations: [TaskIdentifier: Registration] = [:]
        var order: [TaskIdentifier] = []
        var isLaunching = false
        var isLaunchCompleted = false
    }

    public init(
        store: Store, permittedIdentifiers: some Sequence<TaskIdentifier>,
        configuration: SchedulerConfiguration = SchedulerConfiguration(), clock: any Clock,
        conditions: any ConditionsProvider = MachineConditions(), timer: any ExpiryTimer = WallClockExpiryTimer(),
        log: any LogSink = SilentLog()
    ) {
        self.store = store
        self.permittedIdentifiers = Set(permittedIdentifiers)
        self.configuration = configuration
        self.clock = clock
        self.conditions = conditions
        self.timer = timer
        self.log = log
        var generator = SystemRandomNumberGenerator()
        let tag = String(generator.next() & 0xFFFF_FFFF, radix: 16)
        worker = "\(TaskScheduler.hostName):\(getpid()):\(tag)"
    }

    /// The machine's name as `gethostname(2)` gives it, read once: no DNS lookup at every launch.
    private static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// The identifiers registered by the launch, in registration order; empty before it.
    public var registeredIdentifiers: [TaskIdentifier] {
        registry.withLock { $0.order }
    }

    // MARK: Requests

    /// Persists `request` (DESIGN §4). With `.replace`, a pending request with the same identifier
    /// and scope is replaced; with `.keep`, nothing is submitted when any request of that identifier
    /// and scope exists, pending or running, or is kept among the discarded requests.
    ///
    /// - Returns: whether the request was stored (`false` only for `.keep`).
    @discardableResult
    public func submit(_ request: some TaskRequest, policy: SubmitPolicy) async throws(SchedulingError) -> Bool {
        try await checkSubmittable(request)
        do {
            return try await store.submit(request.record, replacing: policy == .replace)
        } catch {
            throw .storage(error)
        }
    }

    /// `submit(_:policy:)` for several requests, in one transaction and one statement: each is checked first, and
    /// none is stored when one fails its check. Returns how many were stored.
    @discardableResult
    public func submit(_ requests: [any TaskRequest], policy: SubmitPolicy) async throws(SchedulingError) -> Int {
        for request in requests { try await checkSubmittable(request) }
        do {
            return try await store.submit(requests.map(\.record), replacing: policy == .replace)
        } catch {
            throw .storage(error)
        }
    }

    /// Throws `.notPermitted` for an identifier outside the permitted list, and what
    /// `checkPendingLimit` throws: the checks of every submission, now or with a run's record.
    func checkSubmittable(_ request: some TaskRequest) async throws(SchedulingError) {
        guard permittedIdentifiers.contains(request.identifier) else { throw .notPermitted(request.identifier) }
        try await checkPendingLimit(request)
    }

    /// Throws `.tooManyPendingTaskRequests` when `request` would pass the configuration's
    /// `pendingRequestLimit`. A request it replaces (same task and scope) and running ones do not
    /// count: a running request is no longer pending, so a handler can always resubmit itself.
    func checkPendingLimit(_ request: some TaskRequest) async throws(SchedulingError) {
        guard let limits = configuration.pendingRequestLimit else { return }
        let kind = request.kind
        let scope = request.scope.storageKey
        let others: Int
        do {
            others = try await store.taskRequests().count {
                $0.leaseOwner == nil && $0.kind == kind.stored
                    && !($0.identifier == request.identifier.rawValue && $0.scope == scope)
            }
        } catch {
            throw .storage(error)
        }
        let limit = limits.limit(for: kind)
        if others >= limit { throw .tooManyPendingTaskRequests(request.identifier, kind: kind, limit: limit) }
    }

    /// Requests, pending and running, in the order they may begin; `nil` matches everything.
    public func pendingRequests(identifier: TaskIdentifier? = nil, scope: TaskScope? = nil)
        async throws(SchedulingError) -> [ScheduledRequest]
    {
        do {
            return try await store.taskRequests(identifier: identifier?.rawValue, scope: scope?.storageKey)
                .compactMap(ScheduledRequest.init)
        } catch {
            throw .storage(error)
        }
    }

    /// Cancels pending requests (`BGTaskScheduler.cancel`); a running one finishes its run. `nil`
    /// matches everything. Returns how many were cancelled.
    @discardableResult
    public func cancel(identifier: TaskIdentifier? = nil, scope: TaskScope? = nil) async throws(SchedulingError) -> Int
    {
        do {
            return try await store.cancelTaskRequests(identifier: identifier?.rawValue, scope: scope?.storageKey)
        } catch {
            throw .storage(error)
        }
    }

    /// Finished runs, oldest first; `limit` keeps the most recent. `nil` matches everything.
    public func history(identifier: TaskIdentifier? = nil, scope: TaskScope? = nil, limit: Int? = nil)
        async throws(SchedulingError) -> [TaskRun]
    {
        do {
            return try await store.taskRuns(identifier: identifier?.rawValue, scope: scope?.storageKey, limit: limit)
                .compactMap(TaskRun.init)
        } catch {
            throw .storage(error)
        }
    }

    // MARK: Registration

    func register(
        _ identifier: TaskIdentifier, scope: ChainScope, cadence: TimeInterval?, chainStart: @escaping ChainStart,
        prepareChainStarts: BatchPreparation?, prepare: BatchPreparation?, handler: @escaping TaskHandler
    ) throws(SchedulingError) {
        guard permittedIdentifiers.contains(identifier) else { throw .notPermitted(identifier) }
        let result: SchedulingError? = registry.withLock { registry in
            if registry.isLaunchCompleted || !registry.isLaunching { return .registeredAfterLaunch(identifier) }
            if registry.registrations[identifier] != nil { return .alreadyRegistered(identifier) }
            registry.registrations[identifier] = Registration(
                identifier: identifier, scope: scope, chainStart: chainStart, handler: handler, cadence: cadence,
                prepare: prepare, prepareChainStarts: prepareChainStarts)
            registry.order.append(identifier)
            return nil
        }
        if let result { throw result }
    }

    func registration(for identifier: TaskIdentifier) -> Registration? {
        registry.withLock { $0.registrations[identifier] }
    }
}

/// Makes a registered task's first request for one scope: `user` is the user of a user scope (with
/// their time zone), `nil` for the global scope. The request must have the task's identifier and
/// that scope.
public typealias ChainStart = @Sendable (_ scope: TaskScope, _ user: User?) async throws -> any TaskRequest

/// Registers handlers, only during a launch's registration closure (iOS: before
/// `application(_:didFinishLaunchingWithOptions:)` returns).
public struct TaskRegistrar: Sendable {
    let scheduler: TaskScheduler

    /// Registers the handler for `identifier` and how its chain starts.
    ///
    /// A registration carries its first request: after registering, the launch submits it with
    /// `.keep` for every scope `scope` covers, so a registered task always has a chain. The handler
    /// should submit its successor with `.replace` as its first statement.
    ///
    /// `cadence`, the time between the task's runs, lets the history say how many periods a late
    /// run covered (`TaskRun.periods`). `prepareChainStarts`, when given, is called with each page of scopes whose
    /// chains the launch is about to start, before `chainStart` is called for the first of them; `prepare` with the
    /// scopes of each batch of the task's requests a worker claims, before the first of them runs (both
    /// `BatchPreparation`).
    ///
    /// - Throws: `.notPermitted` for an identifier outside the permitted list, `.alreadyRegistered`
    ///   the second time, `.registeredAfterLaunch` once the launch has completed its registrations;
    ///   each names the identifier.
    public func register(
        _ identifier: TaskIdentifier, for scope: ChainScope, cadence: TimeInterval? = nil,
        startingWith chainStart: @escaping ChainStart, preparingChainStarts prepareChainStarts: BatchPreparation? = nil,
        preparingBatches prepare: BatchPreparation? = nil, using handler: @escaping TaskHandler
    ) throws(SchedulingError) {
        try scheduler.register(
            identifier, scope: scope, cadence: cadence, chainStart: chainStart, prepareChainStarts: prepareChainStarts,
            prepare: prepare, handler: handler)
    }
}
