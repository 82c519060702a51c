import Foundation
import PipelineKit
import Storage
import TestSupport
import Testing

/// Many writers on one database: each day keeps exactly one row and no user value is lost,
/// whoever commits first (DESIGN §8, bug 5).
@Suite("Concurrent writers", .timeLimit(.minutes(10)))
struct ConcurrentWriterTests {
    static let days = (0..<30).map { Day.literal("2026-02-01").adding(days: $0) }

    @Test(
        "tasks on separate connections writing the same days leave one row per day with every user value",
        arguments: TestBackend.all)
    func manyConnections(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let user = UserID.literal("ada")
        let pipelines = try await withThrowingTaskGroup(of: Pipeline.self) { group in
            for _ in 0..<6 { group.addTask { try await database.open() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, pipeline) in pipelines.enumerated() {
                group.addTask {
                    for day in Self.days.shuffled() {
                        switch index % 3 {
                        case 0:
                            var entry = UserEntry(user: user, day: day)
                            entry.symptomSeverity = .set(day.ordinal % 11)
                            entry.sleepDuration = .set(25_000)
                            try await pipeline.ingest(.entry(entry))
                        case 1:
                            var entry = UserEntry(user: user, day: day)
                            entry.mood = .set(day.ordinal % 5 + 1)
                            try await pipeline.ingest(.entry(entry))
                        default:
                            try await pipeline.ingest(
                                .health(
                                    HealthMetrics(user: user, day: day, hrv: 50, stepCount: 7000, sleepDuration: 30_000)
                                ))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let logs = try await pipelines[0].dailyLogs(user: user)
        #expect(logs.map(\.day) == Self.days)
        for log in logs {
            #expect(log.symptomSeverity == log.day.ordinal % 11)
            #expect(log.mood == log.day.ordinal % 5 + 1)
            #expect(log.sleepDuration == Sourced(25_000, .user), "health must never replace the user's sleep")
            #expect(log.hrv == Sourced(50, .health))
        }
        #expect(try await pipelines[0].summary().dailyLogs == Self.days.count)
    }
}
