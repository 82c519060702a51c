/// A user's settings with their registered defaults.
///
/// A key the user never set reads as its registered default, never as `false` or `0`: the app
/// this ports read `UserDefaults.bool(forKey:)` for a key never written and silently turned
/// everyone's notifications off (DESIGN §8, bug 8).
public struct UserSettings: Sendable, Hashable {
    public var engagementNotifications: Bool
    public var weeklyInsight: Bool
    /// Local hour, 0–23, at which the daily "log today" reminder may be sent.
    public var reminderHour: Int

    /// The registered defaults: notifications on, weekly insight on, reminder at 20:00 local.
    public static let registeredDefaults = UserSettings(
        engagementNotifications: true, weeklyInsight: true, reminderHour: 20)

    public init(engagementNotifications: Bool, weeklyInsight: Bool, reminderHour: Int) {
        self.engagementNotifications = engagementNotifications
        self.weeklyInsight = weeklyInsight
        self.reminderHour = reminderHour
    }

    /// The stored values over the registered defaults.
    public init(stored: [SettingKey: SettingValue]) {
        self = .registeredDefaults
        for (key, value) in stored {
            switch (key, value) {
            case (.engagementNotifications, .bool(let flag)): engagementNotifications = flag
            case (.weeklyInsight, .bool(let flag)): weeklyInsight = flag
            case (.reminderHour, .integer(let hour)): reminderHour = hour
            default: continue
            }
        }
    }
}

/// The settings a user can change.
public enum SettingKey: String, Sendable, Hashable, CaseIterable {
    case engagementNotifications
    case weeklyInsight
    case reminderHour

    /// Checks that `value` has the key's type and range.
    public func validate(_ value: SettingValue) throws(DomainError) {
        switch (self, value) {
        case (.engagementNotifications, .bool), (.weeklyInsight, .bool):
            return
        case (.reminderHour, .integer(let hour)) where (0...23).contains(hour):
            return
        case (.reminderHour, .integer):
            throw .invalidValue(field: rawValue, problem: "must be an hour between 0 and 23")
        case (.reminderHour, _):
            throw .invalidValue(field: rawValue, problem: "must be a whole number")
        default:
            throw .invalidValue(field: rawValue, problem: "must be true or false")
        }
    }
}

public enum SettingValue: Sendable, Hashable {
    case bool(Bool)
    case integer(Int)
}

/// A change to settings: `nil` leaves a key as it is, `.some(nil)` resets it to its default.
public struct SettingsUpdate: Sendable, Hashable {
    public var user: UserID
    public var changes: [SettingKey: SettingValue?]

    public init(user: UserID, changes: [SettingKey: SettingValue?] = [:]) {
        self.user = user
        self.changes = changes
    }
}
