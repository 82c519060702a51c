import Domain
import Foundation
import Scheduling
import Storage

/// The kinds of outbox message the tasks queue.
public enum OutboxKind {
    /// `engagement-daily`'s "log today" reminder.
    public static let logReminder = "log-reminder"
    /// `weekly-insight`'s message, one per ISO week (its `day` is the week's Monday).
    public static let weeklyInsight = "weekly-insight"
}

extension TaskContext {
    /// The chain starts at the user's next reminder hour.
    var firstEngagement: ChainStart {
        refreshChainStart(PipelineTasks.engagementDaily) { [clock] settings, user in
            TaskDates.nextLocalTime(hour: settings.reminderHour, in: user.timeZone, after: clock.now)
        }
    }

    /// `engagement-daily`: at the user's reminder hour (`UserSettings.reminderHour`, 20:00 local by
    /// default), queues a "log today" reminder if engagement notifications are on — they are unless
    /// the user turned them off (DESIGN §8, bug 8) — and today, in the user's time zone, has no entry
    /// from the user. The outbox holds one reminder per user and day, so a re-run sends none. The reminder is
    /// stored with the run's record (`BackgroundTask.storeWithRun`), so it lands only while the run's lease holds:
    /// a worker paused past its lease cannot queue a reminder decided on before the user's entry arrived, nor one
    /// for a day whose reminder was sent and pruned meanwhile.
    var runEngagement: TaskHandler {
        { [self] task in
            guard let profile = await userProfile(of: task) else { return }
            let user = profile.user
            let now = clock.now
            let next = TaskDates.nextLocalTime(hour: profile.settings.reminderHour, in: profile.timeZone, after: now)
            guard await submitSuccessor(dueAt: next, of: task) else { return }
            task.expirationHandler = {}
            guard profile.settings.engagementNotifications else {
                task.setTaskCompleted(success: true, reason: "engagement notifications are off")
                return
            }
            let today = Day(containing: now, in: profile.timeZone)
            // A run late at night is for that day; one after midnight (a launch that was very late)
            // must not remind about a day that has only begun.
            guard now >= today.localTime(hour: profile.settings.reminderHour, in: profile.timeZone) else {
                task.setTaskCompleted(success: true, reason: "before today's reminder hour; nothing to do")
                return
            }
            do {
                if try await store.dailyLog(user: user, day: today)?.hasUserEntry == true {
                    task.setTaskCompleted(success: true, reason: "today already has an entry")
                    return
                }
                if try await store.hasOutboxMessage(user: user, kind: OutboxKind.logReminder, day: today) {
                    task.setTaskCompleted(success: true, reason: "today's reminder was already queued")
                    return
                }
                task.storeWithRun(
                    .post(
                        NewOutboxMessage(
                            user: user, kind: OutboxKind.logReminder, day: today,
                            body: "You have not logged anything today yet. How are you feeling?")))
                task.setTaskCompleted(success: true, reason: "reminder queued")
            } catch {
                fail(task, error)
            }
        }
    }
}
