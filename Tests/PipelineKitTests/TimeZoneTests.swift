import Domain
import Foundation
import Ingestion
import PipelineKit
import TestSupport
import Testing

/// "Today" and the future-day rule in the user's own time zone (DESIGN §2).
@Suite("Days in the user's time zone")
struct TimeZoneTests {
    static func user(_ id: String, _ zone: String) -> InputRecord {
        .user(UserUpdate(id: .literal(id), timeZone: TimeZone.iana(zone)!))
    }

    static func entry(_ id: String, _ day: String, severity: Int = 4) -> InputRecord {
        var entry = UserEntry(user: .literal(id), day: .literal(day))
        entry.symptomSeverity = .set(severity)
        return .entry(entry)
    }

    @Test(
        "today is the calendar date in the user's zone, at UTC+14, UTC−10 and UTC",
        arguments: TestBackend.all,
        [
            // 2026-03-15T12:00Z is already the 16th at UTC+14 and still the 15th at UTC−10.
            ("2026-03-15T12:00:00Z", "Pacific/Kiritimati", "2026-03-16"),
            ("2026-03-15T12:00:00Z", "Pacific/Honolulu", "2026-03-15"),
            ("2026-03-15T09:59:59Z", "Pacific/Kiritimati", "2026-03-15"),
            ("2026-03-15T10:00:00Z", "Pacific/Kiritimati", "2026-03-16"),
            ("2026-03-16T09:59:59Z", "Pacific/Honolulu", "2026-03-15"),
            ("2026-03-16T10:00:00Z", "Pacific/Honolulu", "2026-03-16"),
            ("2026-03-15T23:59:59Z", "UTC", "2026-03-15"),
        ])
    func today(backend: TestBackend, sample: (now: String, zone: String, expected: String)) async throws {
        let (now, zone, expected) = sample
        let database = TestDatabase(backend, now: Date(iso: now))
        let pipeline = try await database.open()
        try await pipeline.ingest(Self.user("traveller", zone))
        #expect(try await pipeline.today(for: .literal("traveller")).day == .literal(expected))
    }

    @Test(
        "the days around a daylight-saving change start and end where the zone says",
        arguments: TestBackend.all,
        [
            // Berlin springs forward on 2026-03-29 (23 hours) and falls back on 2026-10-25 (25 hours).
            ("2026-03-28T23:00:00Z", "2026-03-29"), ("2026-03-29T21:59:59Z", "2026-03-29"),
            ("2026-03-29T22:00:00Z", "2026-03-30"), ("2026-10-24T22:00:00Z", "2026-10-25"),
            ("2026-10-25T22:59:59Z", "2026-10-25"), ("2026-10-25T23:00:00Z", "2026-10-26"),
        ])
    func daylightSaving(backend: TestBackend, sample: (now: String, expected: String)) async throws {
        let (now, expected) = sample
        let database = TestDatabase(backend, now: Date(iso: now))
        let pipeline = try await database.open()
        try await pipeline.ingest(Self.user("berlin", "Europe/Berlin"))
        #expect(try await pipeline.today(for: .literal("berlin")).day == .literal(expected))
        #expect(
            Day.literal("2026-03-29").start(in: TimeZone.iana("Europe/Berlin")!) == Date(iso: "2026-03-28T23:00:00Z"))
        #expect(
            Day.literal("2026-10-26").start(in: TimeZone.iana("Europe/Berlin")!) == Date(iso: "2026-10-25T23:00:00Z"))
    }

    @Test(
        "a row for tomorrow is accepted but is never today; the day after tomorrow is refused",
        arguments: TestBackend.all)
    func futureRows(backend: TestBackend) async throws {
        // 12:00Z on the 15th: the 16th already started at UTC+14, so there "tomorrow" is the 17th.
        let database = TestDatabase(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        let pipeline = try await database.open()
        try await pipeline.ingest([Self.user("kiri", "Pacific/Kiritimati"), Self.user("hono", "Pacific/Honolulu")])
        try await pipeline.ingest(Self.entry("kiri", "2026-03-17"))
        try await pipeline.ingest(Self.entry("hono", "2026-03-16"))
        await #expect(throws: PipelineError.self) { try await pipeline.ingest(Self.entry("hono", "2026-03-17")) }
        await #expect(throws: PipelineError.self) { try await pipeline.ingest(Self.entry("kiri", "2026-03-18")) }

        let kiri = try await pipeline.today(for: .literal("kiri"))
        #expect(kiri.day == .literal("2026-03-16"))
        #expect(kiri.log == nil, "tomorrow's row must not be taken for today")
        let hono = try await pipeline.today(for: .literal("hono"))
        #expect(hono.day == .literal("2026-03-15"))
        #expect(hono.log == nil)
        #expect(try await pipeline.dailyLogs(user: .literal("hono")).map(\.day) == [.literal("2026-03-16")])
    }

    @Test("a user's zone set earlier in the same input decides their future-day rule", arguments: TestBackend.all)
    func zoneFromTheSameBatch(backend: TestBackend) async throws {
        let database = TestDatabase(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        let pipeline = try await database.open()
        // In UTC the 17th would be refused; at UTC+14 it is tomorrow.
        let report = try await pipeline.ingest([
            Self.user("kiri", "Pacific/Kiritimati"), Self.entry("kiri", "2026-03-17"),
        ])
        #expect(report.stored["entry"] == 1)
    }

    @Test(
        "a streamed input checks a day after today in UTC in its user's stored zone, a new user's in UTC; strict or not",
        arguments: TestBackend.all, [false, true])
    func storedZonesOfAStream(backend: TestBackend, strict: Bool) async throws {
        let database = TestDatabase(backend, now: Date(iso: "2026-03-15T12:00:00Z"))
        let pipeline = try await database.open()
        try await pipeline.ingest([Self.user("kiri", "Pacific/Kiritimati"), Self.user("hono", "Pacific/Honolulu")])
        // Tomorrow is the 17th at UTC+14, and the 16th at UTC−10 and in UTC, a new user's zone.
        let lines = """
            {"type":"entry","user":"kiri","day":"2026-03-17","mood":3}
            {"type":"entry","user":"hono","day":"2026-03-16","mood":3}
            {"type":"entry","user":"hono","day":"2026-03-17","mood":3}
            {"type":"entry","user":"newcomer","day":"2026-03-17","mood":3}
            {"type":"entry","user":"kiri","day":"2026-03-18","mood":3}
            {"type":"entry","user":"newcomer","day":"2026-03-15","mood":3}
            """
        let rejected = Locked<[String]>([])
        let report = try await pipeline.ingestJSONLines(from: .bytes(Array(lines.utf8)), strict: strict) { error in
            rejected.withLock { $0.append(error.description) }
        }
        #expect(
            rejected.withLock { $0 } == [
                "line 3: day: is more than one day after today (2026-03-15 in Pacific/Honolulu); future days are refused",
                "line 4: day: is more than one day after today (2026-03-15 in UTC); future days are refused",
                "line 5: day: is more than one day after today (2026-03-16 in Pacific/Kiritimati); future days are refused",
            ])
        #expect(report.stored["entry", default: 0] == (strict ? 0 : 3))
        #expect(
            try await pipeline.dailyLogs(user: .literal("kiri")).map(\.day) == (strict ? [] : [.literal("2026-03-17")]))
        #expect(
            try await pipeline.dailyLogs(user: .literal("hono")).map(\.day) == (strict ? [] : [.literal("2026-03-16")]))
    }
}
