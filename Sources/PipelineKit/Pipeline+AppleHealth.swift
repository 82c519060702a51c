public import Domain
public import Foundation
public import Ingestion
import Storage

/// What an Apple Health import read and stored.
public struct AppleHealthReport: Sendable {
    /// What the reader found: records read, used and skipped by reason.
    public var summary: AppleHealthSummary
    /// Days written to the user's daily logs.
    public var daysWritten = 0
    /// Days refused because they are more than one day after the user's today.
    public var futureDaysRefused = 0
    /// Whether the user was created by this import (with `timeZone`).
    public var createdUser = false
    public var timeZone: TimeZone

    /// The reader's summary and what was stored, for people.
    public var description: String {
        var text = summary.description
        text += "\ndays written: \(daysWritten)"
        if futureDaysRefused > 0 {
            text += "\ndays refused: \(futureDaysRefused) more than one day after today in \(timeZone.ianaName)"
        }
        return text
    }
}

extension Pipeline {
    /// Imports an Apple Health export (`export.xml`, `export.zip`, or `-` for an export.xml on
    /// standard input) into `user`'s daily logs, in the user's time zone: device values with source
    /// `health` (filling gaps, refreshing earlier health values), values the person typed into
    /// Health (`HKWasUserEntered`) with source `user`.
    ///
    /// A user the database does not know is created with `timeZone`, or UTC when it is `nil`; for a
    /// known user, a given `timeZone` replaces theirs first. All days are written in one
    /// transaction: a failure stores nothing.
    public func importAppleHealth(
        path: String, user: UserID, timeZone: TimeZone? = nil, progress: (@Sendable (Int64) -> Void)? = nil
    ) async throws(PipelineError) -> AppleHealthReport {
        let existing = try await self.user(user)
        let zone = timeZone ?? existing?.timeZone ?? .utc
        let result: AppleHealthResult
        do {
            result = try AppleHealthImport(user: user, timeZone: zone).read(path: path, progress: progress)
        } catch {
            throw .appleHealth(error)
        }
        var report = AppleHealthReport(summary: result.summary, timeZone: zone)
        report.createdUser = existing == nil
        let now = clock.now
        var writes: [Day: DayWrite] = [:]
        for metrics in result.health where !metrics.isEmpty { writes[metrics.day] = DayWrite(metrics) }
        for entry in result.userEntered {
            if writes[entry.day] == nil { writes[entry.day] = DayWrite(entry) } else { writes[entry.day]!.merge(entry) }
        }
        let lastAllowed = Day(containing: now, in: zone).adding(days: 1)
        let days = writes.keys.sorted()
        let accepted = days.filter { $0 <= lastAllowed }.map { writes[$0]! }
        report.futureDaysRefused = days.count - accepted.count
        let update = UserUpdate(id: user, timeZone: timeZone ?? (existing == nil ? .utc : nil))
        do {
            report.daysWritten = try await store.batch { store in
                _ = try store.stage(.user(update))
                return accepted.count - (try store.stage(accepted)).count
            }
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            preconditionFailure("unexpected error: \(error)")
        }
        return report
    }
}
