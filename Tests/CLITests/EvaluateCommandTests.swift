import Foundation
import TestSupport
import Testing

/// `pipeline evaluate`, as a user reads it (issue 12, item 7).
@Suite("Evaluate")
struct EvaluateCommandTests {
    static let now = "2026-11-29T12:00:00Z"

    static func cohort(users: Int = 6, days: Int = 90) async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let cohort = await runCLI(["generate", "--users", "\(users)", "--days", "\(days)", "--seed", "5", "--now", now])
        let ingest = await runCLI(
            ["ingest", "-", "--db", directory.path("p.sqlite"), "--now", now], stdin: cohort.stdout)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        return directory
    }

    @Test("evaluate --json has every documented figure and records only its result in the database")
    func json() async throws {
        let directory = try await Self.cohort()
        let db = directory.path("p.sqlite")
        let run = await runCLI(["evaluate", "--days", "3", "--db", db, "--now", Self.now, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["days"] as? Int == 3 && object["users"] as? Int == 6)
        // At noon UTC the six users' todays are 29 November (UTC to Tokyo, and Honolulu) and 30 November
        // (Kiritimati, UTC+14): three days each, from the 26th to the 29th.
        #expect(object["first"] as? String == "2026-11-26" && object["last"] as? String == "2026-11-29")
        let forecasts = try #require(object["forecasts"] as? Int)
        #expect(forecasts > 0 && forecasts <= 18)
        let mae = try #require(object["meanAbsoluteError"] as? [String: Any])
        #expect(Set(mae.keys) == ["served", "persistence", "userMean", "smoothing", "population", "ungatedPersonal"])
        let share = try #require(object["servedShare"] as? [String: Double])
        #expect(Set(share.keys) == ["combined", "personal", "population", "smoothing", "persistence", "recentMean"])
        #expect(abs(share.values.reduce(0, +) - 1) < 1e-9 && share["combined"] == 1)
        let leading = try #require(object["leadingShare"] as? [String: Double])
        #expect(Set(leading.keys) == ["smoothing", "longMean", "population", "personal"])
        #expect(abs(leading.values.reduce(0, +) - 1) < 1e-9)
        let alone = try #require(object["alternatives"] as? [String: Any])
        #expect(Set(alone.keys) == ["personal", "population", "smoothing", "persistence", "recentMean"])
        let interval = try #require(object["interval"] as? [String: Double])
        #expect(Set(interval.keys) == ["coverage", "meanWidth"])
        #expect((0...1).contains(interval["coverage"]!) && interval["meanWidth"]! >= 0)
        #expect(object.keys.contains("weekApartWeightChange"))
        let flare = try #require(object["flare"] as? [String: Any])
        #expect(Set(flare.keys) == ["brier", "auc", "calibrationError", "flareDays"])
        #expect(object["beforeYesterdayLogged"] != nil && object.keys.contains("weekApartAgreement"))
        #expect(object["evaluatedAt"] as? String == Self.now)
        let periods = try #require(object["periods"] as? [[String: Any]])
        #expect(periods.compactMap { $0["forecasts"] as? Int }.reduce(0, +) == forecasts)
        for period in periods {
            let errors = try #require(period["meanAbsoluteError"] as? [String: Any])
            #expect(Set(errors.keys) == ["served", "persistence", "smoothing", "population"])
            #expect(
                Set(period.keys) == ["first", "last", "forecasts", "users", "meanAbsoluteError", "populationForecasts"])
        }
        // Nothing was trained into the database.
        let model = await runCLI(["model", "--user", "user-00001", "--db", db, "--now", Self.now])
        #expect(model.status == 1)
    }

    @Test("evaluate prints the table of errors beside the baselines; a bad --days is a usage error")
    func table() async throws {
        let directory = try await Self.cohort()
        let db = directory.path("p.sqlite")
        let run = await runCLI(["evaluate", "--days", "2", "--db", db, "--now", Self.now])
        #expect(run.status == 0, "\(run.stderr)")
        for label in [
            "served", "tomorrow = today", "user mean", "exponential smoothing", "population", "personal, ungated",
            "80% interval", "served by", "led by", "flare", "week", "forecasts",
        ] {
            #expect(run.stdout.contains(label), "missing \(label)")
        }
        let bad = await runCLI(["evaluate", "--days", "0", "--db", db, "--now", Self.now])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--days"))
    }
}
