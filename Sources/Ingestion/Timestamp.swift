public import Foundation

/// ISO 8601 instants as the CLI and JSON Lines accept them: `2026-03-01T08:00:00Z`, with an offset
/// (`+01:00`), optionally with fractional seconds.
public enum Timestamp {
    public static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// `2026-03-01T08:00:00Z` (UTC, whole seconds).
    public static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
