import Domain
import Testing

@testable import HTMLReport

/// The report's day axes: where their ticks fall and what they say.
@Suite("Day axes")
struct ChartFactoryTests {
    /// `count` days from `first`.
    static func days(from first: String, count: Int) throws -> [Day] {
        let start = try #require(Day(first))
        return (0..<count).map { start.adding(days: $0) }
    }

    @Test("six weeks or less are ticked weekly, on each Monday, in the middle of its day")
    func weeklyTicksOnMondays() throws {
        // 2026-02-02 was a Monday; 42 days run through Sunday 2026-03-15.
        let days = try Self.days(from: "2026-01-31", count: 44)
        let axis = ChartFactory.dayAxis(Array(days.prefix(42)))
        #expect(axis.ticks.map(\.label) == ["Feb 2", "Feb 9", "Feb 16", "Feb 23", "Mar 2", "Mar 9"])
        #expect(axis.ticks.map(\.value) == [2.5, 9.5, 16.5, 23.5, 30.5, 37.5])
    }

    @Test("longer windows are ticked on the first of each month")
    func monthlyTicks() throws {
        let axis = ChartFactory.dayAxis(try Self.days(from: "2026-01-20", count: 60))
        #expect(axis.ticks.map(\.label) == ["Feb 1", "Mar 1"])
        #expect(axis.ticks.map(\.value) == [12.5, 40.5])
    }
}
