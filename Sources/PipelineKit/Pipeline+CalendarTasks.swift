import Domain
import Foundation
import Ingestion
import Scheduling
import Storage

extension Pipeline {
    /// Moves the pending `engagement-daily` and `weekly-insight` requests of `users` to the times
    /// their current reminder hour and time zone give, at once: a reminder never goes out at an
    /// hour the user has changed. Running requests are left alone (their successor is computed
    /// from the new settings); users whose chains have not started are left to the next launch.
    ///
    /// A page of users at a time, in a few statements whatever its size: each task's chains with a pending request
    /// read in one query, the users and their settings in one each, and the new requests submitted in one.
    func moveCalendarRequests(of users: Set<UserID>) async throws(PipelineError) {
        guard !users.isEmpty else { return }
        let context = TaskContext(pipeline: self, personalModel: nil)
        let scheduler = makeScheduler(LaunchOptions())
        let starts: [(TaskIdentifier, ChainStart)] = [
            (PipelineTasks.engagementDaily, context.firstEngagement),
            (PipelineTasks.weeklyInsight, context.firstWeeklyInsight),
        ]
        let sorted = users.sorted { $0.rawValue < $1.rawValue }
        do {
            for first in stride(from: 0, to: sorted.count, by: Self.calendarMovePage) {
                let page = Array(sorted[first..<min(sorted.count, first + Self.calendarMovePage)])
                var moving: [(start: ChainStart, users: [UserID])] = []
                for (identifier, start) in starts {
                    let pending = try await store.scopesWithPendingRequest(
                        identifier: identifier.rawValue, among: page.map(\.rawValue))
                    moving.append((start, page.filter { pending.contains($0.rawValue) }))
                }
                let named = Set(moving.flatMap(\.users)).sorted { $0.rawValue < $1.rawValue }
                guard !named.isEmpty else { continue }
                let found = Dictionary(try await store.users(named).map { ($0.id, $0) }, uniquingKeysWith: { $1 })
                let settings = try await store.settings(for: named)
                var requests: [any TaskRequest] = []
                for (start, ids) in moving where !ids.isEmpty {
                    // A start takes the settings it is given: the page's, kept again for each task's starts.
                    context.preparedSettings.keep(settings, for: ids)
                    for id in ids { requests.append(try await start(.user(id), found[id])) }
                }
                try await scheduler.submit(requests, policy: .replace)
            }
        } catch let error as SchedulingError {
            throw PipelineError(error)
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            preconditionFailure("unexpected error: \(error)")
        }
    }

    /// Users whose calendar requests are moved at a time.
    static let calendarMovePage = 500
}

/// What an ingestion changed that calendar tasks depend on.
struct CalendarInputs: Sendable, Hashable {
    /// Users with a stored `reminderHour` setting.
    var reminderHours: Set<UserID> = []
    /// Users whose stored zone a user record replaced with another: the database held them before the record,
    /// so their chains may have started (a user it had not seen has no requests yet).
    var movedZones: Set<UserID> = []

    /// Notes `record`, stored: a user record over the zone named `storedZone` (its user's, read before the
    /// record was stored; `nil` for a user the database did not hold).
    mutating func note(_ record: InputRecord, storedZone: String?) {
        switch record {
        case .settings(let update) where update.changes.keys.contains(.reminderHour):
            reminderHours.insert(update.user)
        case .user(let update):
            if let zone = update.timeZone, let storedZone, TimeZone.iana(storedZone)?.identifier != zone.identifier {
                movedZones.insert(update.id)
            }
        default:
            break
        }
    }

    /// The users whose reminder hour or time zone changed.
    var changedUsers: Set<UserID> { reminderHours.union(movedZones) }
}
