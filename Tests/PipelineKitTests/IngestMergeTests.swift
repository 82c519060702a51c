import Domain
import Foundation
import Ingestion
import PipelineKit
import TestSupport
import Testing

/// An ingestion writes a day's consecutive entry and health lines as one upsert (`DayWrite`). The
/// row must be the one the same lines give when each is ingested on its own, over a day with no
/// row, a day the person filled in and a day health sync filled in.
@Suite("An entry and a health line of one day in one input store what they store apart")
struct IngestMergeTests {
    /// Lines for one day, each pair written together by one user and apart by another.
    static let pairs: [(String, String)] = [
        (
            #""type":"entry","day":"2026-01-01","symptomSeverity":4,"hrv":40"#,
            #""type":"health","day":"2026-01-01","hrv":70,"stepCount":9000"#
        ),
        (
            #""type":"health","day":"2026-01-02","hrv":70,"sleepDuration":30000"#,
            #""type":"entry","day":"2026-01-02","hrv":null,"mood":2"#
        ),
        (
            #""type":"entry","day":"2026-01-03","notes":"x","stepCount":null"#,
            #""type":"health","day":"2026-01-03","stepCount":5000,"restingHeartRate":60"#
        ),
        (
            #""type":"health","day":"2026-01-04","restingHeartRate":61"#,
            #""type":"entry","day":"2026-01-04","restingHeartRate":55,"energy":5"#
        ),
    ]

    /// What each day held before: nothing, a person's entry, a health sync.
    static let earlier: [String] = [
        "",
        #""type":"entry","day":"DAY","hrv":45,"stepCount":100,"restingHeartRate":50,"mood":3"#,
        #""type":"health","day":"DAY","hrv":80,"stepCount":200,"sleepDuration":20000,"restingHeartRate":62"#,
    ]

    static func line(_ members: String, user: String, shiftedBy weeks: Int) -> String {
        // The days of `pairs` are in January 2026; each earlier state gets its own week.
        var text = members
        for day in 1...4 {
            let original = "2026-01-0\(day)"
            text = text.replacingOccurrences(
                of: original, with: Day.literal(original).adding(days: 7 * weeks).description)
        }
        return #"{"user":"\#(user)",\#(text)}"#
    }

    @Test("the rows are equal whether the lines come in one input or in two", arguments: TestBackend.all)
    func togetherEqualsApart(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        func ingest(_ lines: [String]) async throws {
            let messages = Locked<[String]>([])
            _ = try await pipeline.ingestJSONLines(bytes: Array(lines.joined(separator: "\n").utf8)) { error in
                messages.withLock { $0.append(error.description) }
            }
            #expect(messages.withLock { $0 }.isEmpty)
        }
        var before: [String] = []
        for (week, state) in Self.earlier.enumerated() where !state.isEmpty {
            for day in 1...4 {
                let members = state.replacingOccurrences(of: "DAY", with: "2026-01-0\(day)")
                for user in ["ada", "bea"] { before.append(Self.line(members, user: user, shiftedBy: week)) }
            }
        }
        try await ingest(before)
        var together: [String] = []
        for week in Self.earlier.indices {
            for (first, second) in Self.pairs {
                together.append(Self.line(first, user: "ada", shiftedBy: week))
                together.append(Self.line(second, user: "ada", shiftedBy: week))
            }
        }
        try await ingest(together)
        for week in Self.earlier.indices {
            for (first, second) in Self.pairs {
                try await ingest([Self.line(first, user: "bea", shiftedBy: week)])
                try await ingest([Self.line(second, user: "bea", shiftedBy: week)])
            }
        }
        let ada = try await pipeline.dailyLogs(user: .literal("ada"))
        let bea = try await pipeline.dailyLogs(user: .literal("bea")).map { log in
            var renamed = log
            renamed.user = .literal("ada")
            return renamed
        }
        #expect(ada.count == Self.earlier.count * Self.pairs.count)
        #expect(ada == bea)
        // The rules themselves, on one day: the entry's hrv over health's, health's steps filled in.
        let first = try #require(ada.first)
        #expect(first.hrv == Sourced(40, .user))
        #expect(first.stepCount == Sourced(9000, .health))
    }
}
