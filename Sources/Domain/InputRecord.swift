public import Foundation

/// One unit of input, in the order it arrived: what `pipeline ingest` reads from a JSON Lines line,
/// and what the library's batch ingestion writes.
public enum InputRecord: Sendable, Hashable {
    /// Creates a user, or changes their time zone when one is given.
    case user(UserUpdate)
    /// Changes settings; unset keys keep their registered defaults.
    case settings(SettingsUpdate)
    /// What a person typed for a day.
    case entry(UserEntry)
    /// A day of health metrics from a sync.
    case health(HealthMetrics)
    /// An item for the watch queue.
    case watch(WatchSubmission)

    public var user: UserID {
        switch self {
        case .user(let update): update.id
        case .settings(let update): update.user
        case .entry(let entry): entry.user
        case .health(let metrics): metrics.user
        case .watch(let item): item.user
        }
    }
}

/// Creates a user or changes their time zone. A `nil` time zone leaves an existing user's zone as it
/// is and gives a new user UTC.
public struct UserUpdate: Sendable, Hashable {
    public var id: UserID
    public var timeZone: TimeZone?

    public init(id: UserID, timeZone: TimeZone? = nil) {
        self.id = id
        self.timeZone = timeZone
    }
}
