import Foundation
import Learning
import TestSupport
import Testing

/// `pipeline model`, `predict` and `features` after a retrain, as a user reads them.
@Suite("Model, predict and features")
struct ModelCommandTests {
    static let now = "2026-11-29T12:00:00Z"

    /// A database with a generated cohort, retrained at `now`.
    static func retrained(users: Int = 4, days: Int = 150) async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let cohort = await runCLI(["generate", "--users", "\(users)", "--days", "\(days)", "--now", now])
        let ingest = await runCLI(["ingest", "-", "--db", db, "--now", now], stdin: cohort.stdout)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let retrain = await runCLI(["retrain", "--db", db, "--now", now])
        try #require(retrain.status == 0, "\(retrain.stderr)")
        return directory
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("model --json has the documented fields, one coefficient per feature, and says which model is served")
    func modelJSON() async throws {
        let directory = try await Self.retrained()
        let run = await runCLI(["model", "--user", "user-00001", "--db", directory.path("p.sqlite"), "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let model = try Self.object(run.stdout)
        for key in [
            "user", "trainedAt", "alpha", "intercept", "coefficients", "metrics", "promoted", "source", "reason",
            "selection",
        ] {
            #expect(model[key] != nil, "missing \(key)")
        }
        #expect(model["user"] as? String == "user-00001")
        #expect(model["trainedAt"] as? String == Self.now)
        let coefficients = try #require(model["coefficients"] as? [String: Double])
        #expect(Set(coefficients.keys) == Set(ModelSpec.symptomForecast.featureNames))
        let source = try #require(model["source"] as? String)
        // The kind served is the selection's winner, and every candidate's score is there.
        let selection = try #require(model["selection"] as? [String: Any])
        #expect(selection["severityWinner"] as? String == source)
        let candidates = try #require(selection["severity"] as? [[String: Any]]).compactMap {
            $0["candidate"] as? String
        }
        #expect(candidates.starts(with: ["persistence", "recentMean"]) && candidates.contains(source))
        #expect(model["promoted"] as? Bool == true)
        let text = await runCLI(["model", "--user", "user-00001", "--db", directory.path("p.sqlite")])
        #expect(text.stdout.contains("model         \(source)"))
        #expect(text.stdout.contains("candidates    "))
    }

    @Test("predict forecasts tomorrow by default with a severity in 0–10 and a probability; later days are refused")
    func predict() async throws {
        let directory = try await Self.retrained()
        let db = directory.path("p.sqlite")
        let run = await runCLI(["predict", "--user", "user-00001", "--db", db, "--now", Self.now, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let forecast = try Self.object(run.stdout)
        #expect(forecast["day"] as? String == "2026-11-30")
        let severity = try #require(forecast["severity"] as? Double)
        let probability = try #require(forecast["flareProbability"] as? Double)
        #expect((0...10).contains(severity) && severity == severity.rounded())
        #expect((0...1).contains(probability))
        #expect(["combined", "population"].contains(forecast["model"] as? String))
        let interval = try #require(forecast["interval"] as? [Double])
        #expect(interval.count == 2 && interval[0] <= severity && severity <= interval[1])
        let past = await runCLI([
            "predict", "--user", "user-00001", "--for", "2026-11-01", "--db", db, "--now", Self.now,
        ])
        #expect(past.status == 0)
        #expect(past.stdout.hasPrefix("2026-11-01: severity "))
        let later = await runCLI([
            "predict", "--user", "user-00001", "--for", "2026-12-01", "--db", db, "--now", Self.now,
        ])
        #expect(later.status == 64)
        #expect(later.stderr.contains("at most tomorrow"))
    }

    /// predict printed a forecast from a model a week old, or from inputs all imputed, as it printed any other.
    @Test("predict warns on stderr and in --json of a model that missed its retrains and of imputed inputs")
    func predictWarnings() async throws {
        let directory = try await Self.retrained()
        let db = directory.path("p.sqlite")
        // The generated days end the day before `now`: tomorrow's inputs (today's entries) are not logged.
        let fresh = await runCLI(["predict", "--user", "user-00001", "--db", db, "--now", Self.now, "--json"])
        #expect(fresh.status == 0)
        let warnings = try #require(try Self.object(fresh.stdout)["warnings"] as? [String])
        #expect(warnings.count == 1 && warnings[0].hasPrefix("2026-11-29 has no severity"), "\(warnings)")
        #expect(fresh.stderr == "warning: \(warnings[0])\n")
        // The day before tomorrow's neighbour was logged: nothing imputed, a model of today: no warning.
        let logged = await runCLI([
            "predict", "--user", "user-00001", "--for", "2026-11-28", "--db", db, "--now", Self.now,
        ])
        #expect(logged.status == 0 && logged.stderr.isEmpty, "\(logged.stderr)")
        // A week later, with no retrain since.
        let week = "2026-12-06T12:00:00Z"
        let stale = await runCLI(["predict", "--user", "user-00001", "--db", db, "--now", week, "--json"])
        let staleWarnings = try #require(try Self.object(stale.stdout)["warnings"] as? [String])
        #expect(staleWarnings.first?.hasPrefix("the model was trained 7 days ago") == true, "\(staleWarnings)")
        #expect(stale.stderr.contains("is cron running 'pipeline retrain'?"))
    }

    @Test("features prints the last fit's matrix as CSV: day, every feature, target; nothing missing")
    func features() async throws {
        let directory = try await Self.retrained()
        let run = await runCLI(["features", "--user", "user-00002", "--db", directory.path("p.sqlite")])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        #expect(header == (["day"] + ModelSpec.symptomForecast.featureNames + ["target"]).joined(separator: ","))
        #expect(lines.count > ModelSpec.symptomForecast.training.minimumUsableDays)
        let design = try DesignMatrix(csv: run.stdout)
        #expect(design.rowCount == lines.count - 1)
        #expect(!design.hasMissingValues)
        #expect(run.stderr.isEmpty, "the data did not change after the fit")
    }

    @Test("model and predict before any retrain say to run it, with status 1")
    func beforeRetrain() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        _ = await runCLI(["ingest", "-", "--db", db], stdin: #"{"type":"user","user":"ada"}"#)
        for command in ["model", "predict"] {
            let run = await runCLI([command, "--user", "ada", "--db", db])
            #expect(run.status == 1)
            #expect(run.stderr.contains("pipeline retrain"))
        }
    }
}
