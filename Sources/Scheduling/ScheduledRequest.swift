public import Foundation
import Storage

/// A persisted request: pending, or running under a worker's lease.
public struct ScheduledRequest: Sendable, Hashable {
    /// A worker's hold on a running request. A lease that expired belongs to a worker that died.
    public struct Lease: Sendable, Hashable {
        public var owner: String
        public var claimedAt: Date
        public var expiresAt: Date
    }

    public var id: Int64
    public var identifier: TaskIdentifier
    public var scope: TaskScope
    public var kind: TaskKind
    public var earliestBeginDate: Date?
    public var requiresExternalPower: Bool
    public var requiresNetworkConnectivity: Bool
    public var submittedAt: Date
    /// Times it was claimed, including earlier failed attempts a retry inherited.
    public var attempts: Int
    /// `nil` while pending.
    public var lease: Lease?

    public var isPending: Bool { lease == nil }

    /// Whether it may begin at `instant` (its conditions aside).
    public func isDue(at instant: Date) -> Bool {
        earliestBeginDate.map { $0 <= instant } ?? true
    }

    init?(_ record: TaskRequestRecord) {
        guard let identifier = TaskIdentifier(record.identifier), let scope = TaskScope(storageKey: record.scope)
        else { return nil }
        id = record.id
        self.identifier = identifier
        self.scope = scope
        kind = TaskKind(record.kind)
        earliestBeginDate = record.earliestBeginAt
        requiresExternalPower = record.requiresExternalPower
        requiresNetworkConnectivity = record.requiresNetwork
        submittedAt = record.submittedAt
        attempts = record.attempts
        if let owner = record.leaseOwner, let claimedAt = record.claimedAt, let expiresAt = record.leaseExpiresAt {
            lease = Lease(owner: owner, claimedAt: claimedAt, expiresAt: expiresAt)
        }
    }
}

/// The scheduler's kinds and outcomes are the stored ones under the names `BGTaskScheduler` gives them: the same
/// raw values, case for case (`StoredNamesTests`).
protocol StoredUnderRawValue: RawRepresentable<String> {
    associatedtype Stored: RawRepresentable<String>
}

extension StoredUnderRawValue {
    init(_ stored: Stored) {
        self.init(rawValue: stored.rawValue)!
    }

    var stored: Stored { Stored(rawValue: rawValue)! }
}

extension TaskKind: StoredUnderRawValue {
    typealias Stored = TaskRequestKind
}

extension TaskOutcome: StoredUnderRawValue {
    typealias Stored = TaskRunOutcome
}

extension TaskRequest {
    /// The row to store.
    var record: NewTaskRequest {
        let processing = self as? ProcessingTaskRequest
        return NewTaskRequest(
            identifier: identifier.rawValue, scope: scope.storageKey, kind: kind.stored,
            earliestBeginAt: earliestBeginDate, requiresExternalPower: processing?.requiresExternalPower ?? false,
            requiresNetwork: processing?.requiresNetworkConnectivity ?? false)
    }
}
