import Domain
import Foundation
import Ingestion
import PipelineKit
import Storage
import TestSupport
import Testing

/// `pipeline evaluate` records its walk forward, and `pipeline report` shows the latest one on the
/// cohort page in place of the hold-out metrics (issue 15, item 2), on each backend.
@Suite("Evaluation on the report", .timeLimit(.minutes(10)))
struct EvaluationReportTests {
    static let now = "2026-11-29T12:00:00Z"

    /// A cohort of ten users with five months of days through yesterday (enough for the population model to be
    /// pooled on every walked day), retrained once, so every user is served a model.
    static func cohort(_ backend: TestBackend) async throws -> TestDatabase {
        let database = TestDatabase(backend, now: Date(iso: now))
        let cohort = await runCLI(["generate", "--users", "10", "--days", "150", "--seed", "5", "--now", now])
        let ingest = await runCLI(["ingest", "-", "--db", database.path, "--now", now], stdin: cohort.stdout)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let retrain = await runCLI(["retrain", "--db", database.path, "--now", now])
        try #require(retrain.status == 0, "\(retrain.stderr)")
        return database
    }

    /// The report's cohort page, made at `now`.
    static func cohortPage(_ database: TestDatabase, now: String = now) async throws -> String {
        let directory = TemporaryDirectory("report")
        let out = directory.path("site")
        let run = await runCLI(["report", "--out", out, "--db", database.path, "--now", now])
        try #require(run.status == 0, "\(run.stderr)")
        return try String(contentsOfFile: out + "/index.html", encoding: .utf8)
    }

    /// The rows of the forecast-error table: period, users, days and the three errors as printed.
    static func forecastErrorRows(_ page: String) throws -> [[String]] {
        let start = try #require(page.range(of: "id=\"forecast-error\""))
        let section = page[start.upperBound...]
        let table = try #require(
            section.range(of: "<tbody>").flatMap { body in
                section[body.upperBound...].range(of: "</tbody>").map { section[body.upperBound..<$0.lowerBound] }
            })
        return table.components(separatedBy: "</tr>").dropLast().map { row in
            row.matches(of: /<td[^>]*>([^<]*)<\/td>/).map { String($0.1) }
        }
    }

    static func decimal(_ value: Double?) -> String {
        value.map { String(format: "%.3f", $0) } ?? "–"
    }

    @Test("evaluate stores what it printed, and report shows its weekly figures", arguments: TestBackend.all)
    func evaluationOnTheReport(backend: TestBackend) async throws {
        let database = try await Self.cohort(backend)

        // Before any evaluation: the hold-out metrics, said so.
        let before = try await Self.cohortPage(database)
        #expect(before.contains("Figures: hold-out days of each served model."))
        #expect(!before.contains("walk-forward evaluation"))

        let run = await runCLI(["evaluate", "--days", "10", "--db", database.path, "--now", Self.now, "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        let printed = try #require(
            try JSONParser().parse(run.stdout.trimmingCharacters(in: .newlines)).objectValue)
        let evaluation = try #require(Evaluation(json: printed))
        #expect(evaluation.evaluatedAt == Date(iso: Self.now))
        #expect(!evaluation.periods.isEmpty)
        #expect(evaluation.periods.map(\.forecasts).reduce(0, +) == evaluation.forecasts)
        // The window the header names holds every week it lists, in whatever zones the users live.
        #expect(evaluation.periods.allSatisfy { $0.first >= evaluation.first && $0.last <= evaluation.last })
        #expect(evaluation.periods.allSatisfy { $0.population != nil && $0.populationForecasts == $0.forecasts })
        #expect(evaluation.periods.allSatisfy { $0.smoothing != nil })

        // Stored: the document printed, byte for byte, and the same figures read back.
        let pipeline = try await database.open()
        let stored = try #require(try await pipeline.store.latestEvaluation())
        #expect(stored.json == run.stdout.trimmingCharacters(in: .newlines))
        #expect(stored.evaluatedAt == evaluation.evaluatedAt)
        #expect(stored.first == evaluation.first && stored.last == evaluation.last && stored.days == 10)
        #expect(try await pipeline.latestEvaluation() == evaluation)

        // The report names the method and the evaluation's time, and its table is the weekly figures.
        let after = try await Self.cohortPage(database)
        #expect(
            after.contains(
                "Figures: walk-forward evaluation (pipeline evaluate) of the 10 days \(evaluation.first) to "
                    + "\(evaluation.last)."))
        #expect(after.contains("Measured \(Self.now)."))
        #expect(!after.contains("retrained since"))
        let rows = try Self.forecastErrorRows(after)
        #expect(
            rows
                == evaluation.periods.map { period in
                    [
                        "\(period.first) – \(period.last)", "\(period.users)", "\(period.forecasts)",
                        Self.decimal(period.served), Self.decimal(period.persistence),
                        Self.decimal(period.smoothing ?? .nan), Self.decimal(period.population),
                    ]
                })

        // A retrain after the evaluation: the page says the figures are of the models served before.
        let later = "2026-11-30T12:00:00Z"
        let retrain = await runCLI(["retrain", "--force", "--db", database.path, "--now", later])
        try #require(retrain.status == 0, "\(retrain.stderr)")
        let stale = try await Self.cohortPage(database, now: later)
        #expect(stale.contains("Measured \(Self.now). Models were retrained since (the newest at \(later))"))
    }
}
