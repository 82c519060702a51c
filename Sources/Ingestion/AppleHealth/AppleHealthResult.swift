public import Domain

/// The daily values of an export, ready for the store, and what happened on the way.
public struct AppleHealthResult: Sendable, Hashable {
    /// One value set per day with a device-recorded value (source `health`), sorted by day.
    public var health: [HealthMetrics]
    /// Per day, what a person typed into Health (`HKWasUserEntered`), sorted by day. Only metric
    /// fields are set; each is stored with source `user` and wins over a `health` value.
    public var userEntered: [UserEntry]
    /// Time in bed per night (same attribution as sleep), sorted by day. Not a DailyLog field:
    /// returned for reporting.
    public var timeInBed: [AppleHealthTimeInBed]
    public var summary: AppleHealthSummary
}

/// Seconds in bed on the night that ends on `day`.
public struct AppleHealthTimeInBed: Sendable, Hashable {
    public var day: Day
    public var seconds: Double
}
