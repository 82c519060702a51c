public import Domain
import Foundation
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

    mutating func add(_ other: DrainReport) {
        applied.merge(other.applied, uniquingKeysWith: +)
        failed += other.failed
        deadLettered += other.deadLettered
    }
}

extension Pipeline {
    /// Items read and applied per transaction while draining.
    static let drainPageSize = 1_000

    /// Applies queued watch items of `kinds` (for one user, or everyone), in queue order: each item's
    /// effect and its removal are committed together; items of other kinds — including kinds this
    /// version does not know — are not touched (DESIGN §8, bug 9). An item that fails stays queued
    /// with its attempt count and error, and after `WatchItem.maxAttempts` failures moves to the
    /// dead-letter list.
    ///
    /// Both the foreground path (`ingest`) and the background path (the `health-refresh` task) call
    /// this one function, so the two cannot drift. Cancellation stops it between pages.
    public func drainWatchQueue(kinds: [WatchKind] = WatchKind.allCases, user: UserID? = nil)
        async throws(PipelineError) -> DrainReport
    {
        try await drainWatchQueue(kinds: kinds, user: user, fencedBy: nil).report
    }

    /// `drainWatchQueue(kinds:user:)`, each page's transaction fenced by `lease` when given (a `health-refresh`
    /// run's, `BackgroundTask.lease`): it first checks that the lease holds (`Store.holdsLease`) and, once another
    /// worker has taken the run's request over, writes nothing and the drain stops there (`leaseLost`). The pages
    /// committed before stay: each was applied while the lease held, as by any drain.
    ///
    /// The pages are not stored with the run's record (`BackgroundTask.storeWithRun`), as its other writes are: a
    /// drain reads each page after the page before is written, and commits each page so that a run cut short
    /// loses nothing. Without the fence a late page (a worker paused past its lease, then resumed) could still apply
    /// no item twice — an item is applied only by the transaction whose DELETE removes it from the queue — but it
    /// would judge the items still queued by the paused worker's old clock: the future-day rule would count a failed
    /// attempt against an item whose day has begun since, and bring it nearer the dead-letter list.
    func drainWatchQueue(kinds: [WatchKind], user: UserID?, fencedBy lease: TaskLease?)
        async throws(PipelineError) -> (report: DrainReport, leaseLost: Bool)
    {
        var report = DrainReport()
        let now = clock.now
        let names = kinds.map(\.rawValue)
        // The kinds are read together, in queue order: each kind's items still apply in the order
        // they were queued, and the kinds write different fields, so this is the same as draining
        // them one after the other, in one pass over the users' days instead of one per kind.
        // Each page commits on its own, so stopping between pages loses nothing: a cancelled drain
        // (a task past its budget) leaves the rest queued for the next one.
        //
        // The next page is read while a page is written, and its payloads are parsed: its items come
        // after this page's, which writing this page does not change. After a full first page (a bulk
        // ingestion's queue) the pages are read on a connection of their own, beside the store's,
        // which writes; a short queue (a user's few items) is not worth opening one.
        func read(after id: Int64, from reader: LogReader?) async throws(PipelineError) -> [WatchItem] {
            try await storage { (store) throws(StorageError) in
                if let reader {
                    return try await reader.watchItems(
                        kinds: names, user: user, after: id, limit: Pipeline.drainPageSize)
                }
                return try await store.watchItems(kinds: names, user: user, after: id, limit: Pipeline.drainPageSize)
            }
        }
        var page = Self.parse(try await read(after: 0, from: nil))
        // The reader only saves time: when it cannot be opened (a server at its connection limit, a file
        // removed while open), the pages are read through the store, as for a short queue.
        let reader = page.count == Pipeline.drainPageSize ? try? store.logReader() : nil
        func readAhead(after id: Int64) async -> Result<[ParsedWatchItem], PipelineError> {
            do throws(PipelineError) {
                return .success(Self.parse(try await read(after: id, from: reader)))
            } catch {
                return .failure(error)
            }
        }
        while !Task.isCancelled, let last = page.last {
            async let next = readAhead(after: last.item.id)
            let outcome: (DrainReport, [String])?
            do {
                outcome = try await store.batch { [page] store in
                    if let lease, try !store.holdsLease(lease) { return nil }
                    return try Pipeline.apply(page, now: now, in: store)
                }
            } catch let error as StorageError {
                throw .storage(error)
            } catch {
                preconditionFailure("unexpected error: \(error)")
            }
            guard let outcome else { return (report, true) }
            report.add(outcome.0)
            for message in outcome.1 { log.log(.warning, message) }
            page = try await next.get()
        }
        return (report, false)
    }

    /// A queued item with its payload read and checked as ingestion checks it, all but the future-day rule,
    /// which needs the user's time zone from the store (`apply` checks it).
    struct ParsedWatchItem: Sendable {
        let item: WatchItem
        /// The entry (`nil` for a kind this version does not apply), or why the payload is refused.
        let entry: Result<UserEntry?, FieldError>
    }

    private static func parse(_ page: [WatchItem]) -> [ParsedWatchItem] {
        page.map { item in
            ParsedWatchItem(
                item: item,
                entry: Result(catching: { () throws(FieldError) in
                    guard let entry = try WatchPayload.entry(for: item) else { return nil }
                    try entry.validate(asField: "payload")
                    return entry
                }))
        }
    }

    /// Applies one page of items inside a batch; returns the counts and warnings to log.
    private static func apply(_ page: [ParsedWatchItem], now: Date, in store: isolated Store) throws(StorageError)
        -> (DrainReport, [String])
    {
        var report = DrainReport()
        var warnings: [String] = []
        // Each user's zone read once a page, for the days that need it.
        var futureDays = FutureDayRule(now: now)
        // Applied together after the loop, in queue order; the failures touch no day, so they may
        // go first.
        var completions: [WatchCompletion] = []
        for parsed in page {
            let item = parsed.item
            var checked = parsed.entry
            if case .success(let entry?) = checked, futureDays.needsZone(entry.day) {
                if !futureDays.knows(item.user) {
                    futureDays.setZone(try store.timeZone(of: item.user) ?? .utc, of: item.user)
                }
                do throws(FieldError) {
                    try futureDays.check(entry.day, field: "payload.day", user: item.user)
                } catch {
                    checked = .failure(error)
                }
            }
            switch checked {
            case .success(nil):
                continue  // a kind this version does not apply: it stays queued
            case .success(let entry?):
                completions.append(WatchCompletion(id: item.id, entry: entry))
            case .failure(let failure):
                if try store.stageFailure(watchItem: item.id, error: failure.description) {
                    report.deadLettered += 1
                    warnings.append(
                        "watch item \(item.id) (\(item.kind)) moved to the dead-letter list after "
                            + "\(WatchItem.maxAttempts) failed attempts; last problem in \(failure.field)")
                } else {
                    report.failed += 1
                }
            }
        }
        let applied = try store.stageCompletions(completions)
        for parsed in page where applied.contains(parsed.item.id) {
            report.applied[parsed.item.kind, default: 0] += 1
        }
        return (report, warnings)
    }
}

extension UserEntry {
    /// `validate()` with the field named as the input spells it.
    func validate(asField prefix: String) throws(FieldError) {
        do { try validate() } catch {
            throw FieldError(prefix + "." + FieldError(error).field, FieldError(error).problem)
        }
    }
}
