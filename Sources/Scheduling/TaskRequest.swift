public import Foundation

/// The two kinds of background task on iOS, and their default budgets.
public enum TaskKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `BGAppRefreshTask`: short work, 30 s by default.
    case appRefresh = "refresh"
    /// `BGProcessingTask`: long work, 10 min by default, which may require external power or a network.
    case processing

    public var description: String { rawValue }
}

/// A request to run a task later, as iOS's `BGTaskRequest`.
///
/// Only `AppRefreshTaskRequest` and `ProcessingTaskRequest` are requests; other conforming types are
/// a programmer error and trap when submitted, as an abstract `BGTaskRequest` would.
public protocol TaskRequest: Sendable {
    var identifier: TaskIdentifier { get }
    var scope: TaskScope { get }
    /// Not before this instant — never "at" it: the task runs at the first launch after it.
    /// `nil` means as soon as possible.
    var earliestBeginDate: Date? { get set }
}

/// A short task (`BGAppRefreshTaskRequest`). It has no conditions: requiring power or a network is
/// a processing request's property, so writing it on a refresh request does not compile.
public struct AppRefreshTaskRequest: TaskRequest, Hashable {
    public let identifier: TaskIdentifier
    public let scope: TaskScope
    public var earliestBeginDate: Date?

    public init(identifier: TaskIdentifier, scope: TaskScope = .global, earliestBeginDate: Date? = nil) {
        self.identifier = identifier
        self.scope = scope
        self.earliestBeginDate = earliestBeginDate
    }
}

/// A long task (`BGProcessingTaskRequest`), which runs only while its conditions hold.
public struct ProcessingTaskRequest: TaskRequest, Hashable {
    public let identifier: TaskIdentifier
    public let scope: TaskScope
    public var earliestBeginDate: Date?
    /// Run only while the machine is on external power (not on a discharging battery).
    public var requiresExternalPower: Bool
    /// Run only while a non-loopback network interface is up.
    public var requiresNetworkConnectivity: Bool

    public init(
        identifier: TaskIdentifier, scope: TaskScope = .global, earliestBeginDate: Date? = nil,
        requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false
    ) {
        self.identifier = identifier
        self.scope = scope
        self.earliestBeginDate = earliestBeginDate
        self.requiresExternalPower = requiresExternalPower
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
    }
}

/// What `submit` does when a request with the same identifier and scope is already pending.
public enum SubmitPolicy: Sendable, Hashable {
    /// Replace the pending request (Apple's semantics), for a handler rescheduling itself.
    case replace
    /// Keep any request of that identifier and scope, pending or running, and submit nothing
    /// (Android WorkManager's `KEEP`), for the launch chain: submitting with `.replace` at every
    /// launch would push a daily task's date out forever under a 15-minute cron (DESIGN §8, bug 2).
    case keep
}

extension TaskRequest {
    var kind: TaskKind {
        switch self {
        case is AppRefreshTaskRequest: .appRefresh
        case is ProcessingTaskRequest: .processing
        default:
            preconditionFailure(
                "\(type(of: self)) is not a task request; use AppRefreshTaskRequest or ProcessingTaskRequest")
        }
    }
}
