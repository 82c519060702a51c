public import Domain
import Ingestion
import Storage

/// What a drain of the watch queue did.
public struct DrainReport: Sendable, Hashable {
    /// Items applied and removed, by kind.
    public var applied: [String: Int] = [:]
    /// Items that failed this time and stay queued with their attempt count.
    public var failed = 0
    /// Items that failed for the last allowed time and moved to the dead-letter list.
    public var deadLettered = 0

    public init() {}

    public var appliedCount: Int { applied.values.reduce(0, +) }
}

extension Pipeline {
    /// Applies queued watch items of `kinds` (for one user, or everyone), kind by kind: each item's
    /// effect and its removal happen in one transaction; items of other kinds — including kinds this
    /// version does not know — are not touched (DESIGN §8, bug 9). An item that fails stays queued
    /// with its attempt count and error, and after `WatchItem.maxAttempts` failures moves to the
    /// dead-letter list.
    ///
    /// Both the foreground path (`ingest`) and the background path (the `health-refresh` task) call
    /// this one function, so the two cannot drift.
    public func drainWatchQueue(kinds: [WatchKind] = WatchKind.allCases, user: UserID? = nil)
        async throws(PipelineError) -> DrainReport
    {
        var report = DrainReport()
        for kind in kinds {
            let items = try await storage { (store) throws(StorageError) in
                try await store.watchItems(kind: kind.rawValue, user: user)
            }
            for item in items {
                let zone = try await storage { (store) throws(StorageError) in try await store.timeZone(of: item.user) }
                let entry: UserEntry
                let failure: FieldError
                do throws(FieldError) {
                    guard let decoded = try WatchPayload.entry(for: item) else { continue }
                    try decoded.validate(asField: "payload")
                    try checkNotTooFarAhead(decoded.day, field: "payload.day", timeZone: zone ?? .utc, now: clock.now)
                    entry = decoded
                } catch {
                    failure = error
                    let moved = try await storage { (store) throws(StorageError) in
                        try await store.recordFailure(watchItem: item.id, error: failure.description)
                    }
                    if moved {
                        report.deadLettered += 1
                        log.log(
                            .warning,
                            "watch item \(item.id) (\(item.kind)) moved to the dead-letter list after "
                                + "\(WatchItem.maxAttempts) failures; last: \(failure.field)")
                    } else {
                        report.failed += 1
                    }
                    continue
                }
                let applied = try await storage { (store) throws(StorageError) in
                    try await store.complete(watchItem: item.id, applying: entry)
                }
                if applied { report.applied[kind.rawValue, default: 0] += 1 }
            }
        }
        return report
    }
}

extension UserEntry {
    /// `validate()` with the field named as the input spells it.
    func validate(asField prefix: String) throws(FieldError) {
        do { try validate() } catch { throw FieldError(prefix + "." + FieldError(error).field, FieldError(error).problem) }
    }
}
