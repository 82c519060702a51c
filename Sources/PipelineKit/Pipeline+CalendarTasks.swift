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
    func moveCalendarRequests(of users: Set<UserID>) async throws(PipelineError) {
        guard !users.isEmpty else { return }
        let context = TaskContext(pipeline: self, personalModel: nil)
        let scheduler = makeScheduler(LaunchOptions())
        let starts: [(TaskIdentifier, ChainStart)] = [
            (PipelineTasks.engagementDaily, context.firstEngagement),
            (PipelineTasks.weeklyInsight, context.firstWeeklyInsight),
        ]
        for id in users.sorted(by: { $0.rawValue < $1.rawValue }) {
            let scope = TaskScope.user(id)
            for (identifier, start) in starts {
                do {
                    let pending = try await scheduler.pendingRequests(identifier: identifier, scope: scope)
                    guard pending.contains(where: { $0.lease == nil }) else { continue }
                    let request = try await start(scope, try await store.user(id))
                    try await scheduler.submit(request, policy: .replace)
                } catch let error as SchedulingError {
                    throw PipelineError(error)
                } catch let error as StorageError {
                    throw .storage(error)
                } catch {
                    preconditionFailure("unexpected error: \(error)")
                }
            }
        }
    }
}

/// What an ingestion changed that calendar tasks depend on.
struct CalendarInputs: Sendable, Hashable {
    /// Users with a stored `reminderHour` setting.
    var reminderHours: Set<UserID> = []
    /// Users with a stored time zone, and the zone.
    var timeZones: [UserID: TimeZone] = [:]

    mutating func note(_ record: InputRecord) {
        switch record {
        case .settings(let update) where update.changes.keys.contains(.reminderHour):
            reminderHours.insert(update.user)
        case .user(let update):
            if let zone = update.timeZone { timeZones[update.id] = zone }
        default:
            break
        }
    }

    /// The users whose reminder hour changed or whose known zone is now another one (a user the
    /// database had not seen has no requests yet).
    func changedUsers(before zones: StoredZones) -> Set<UserID> {
        var users = reminderHours
        for (user, zone) in timeZones {
            if let known = zones.known[user], known.identifier != zone.identifier { users.insert(user) }
            if zones.unresolved[user] != nil { users.insert(user) }
        }
        return users
    }
}
