public import Domain
public import Foundation
public import PipelineKit

/// A database file in a fresh temporary directory, with a manual clock, for one test.
public final class TestDatabase: Sendable {
    public let directory = TemporaryDirectory("pipeline-db")
    public let clock: ManualClock

    /// `now` defaults to 2026-03-15T12:00:00Z.
    public init(now: Date = Date(iso: "2026-03-15T12:00:00Z")) {
        clock = ManualClock(now)
    }

    public var path: String { directory.path("pipeline.sqlite") }

    /// Opens a pipeline on the database; each call opens its own connection.
    public func open() async throws -> Pipeline {
        try await Pipeline.open(path: path, clock: clock)
    }
}

extension UserID {
    /// A test's literal id; traps if invalid, because it is a programmer's value.
    public static func literal(_ text: String) -> UserID {
        guard let id = UserID(text) else { preconditionFailure("invalid user id \(text)") }
        return id
    }
}

extension Day {
    /// A test's literal day; traps if invalid.
    public static func literal(_ text: String) -> Day {
        guard let day = Day(text) else { preconditionFailure("invalid day \(text)") }
        return day
    }
}
