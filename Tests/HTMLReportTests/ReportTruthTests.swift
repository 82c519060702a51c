import Domain
import Foundation
import HTMLReport
import PipelineKit
import TestSupport
import Testing

/// What the report says, held against the command that knows it: what serves each user against
/// `pipeline model`, the scheduler's health against `pipeline status --check`, tomorrow's forecast against
/// `pipeline predict`, the candidates' scores against `pipeline model --json`. The report is made by
/// `pipeline report` at the same instant.
@Suite("The report says what the commands say", .timeLimit(.minutes(10)))
struct ReportTruthTests {
    static let now = ISO8601Instant.string(from: ReportFixture.now)

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `pipeline report` of the fixture at `now`, into a new folder.
    static func report(_ fixture: ReportFixture, now: String = now) async throws -> (TemporaryDirectory, String) {
        let directory = TemporaryDirectory("report")
        let out = directory.path("site")
        let run = await runCLI(["report", "--out", out, "--db", fixture.database.path, "--now", now])
        try #require(run.status == 0, "\(run.stderr)")
        return (directory, out)
    }

    @Test(
        "each user's served model is what pipeline model names, on their page, in the list and in the chart",
        arguments: TestBackend.all)
    func servedModels(backend: TestBackend) async throws {
        let fixture = try await ReportFixture.shared(backend)
        let (directory, out) = try await Self.report(fixture)
        defer { withExtendedLifetime(directory) {} }
        let index = try contents(out + "/index.html")
        var counts: [String: Int] = [:]
        for user in try await fixture.pipeline.users() {
            let run = await runCLI(["model", "--user", user.id.rawValue, "--json", "--db", fixture.database.path])
            #expect(run.status == 0, "\(run.stderr)")
            let model = try Self.json(run.stdout)
            let served = try #require(model["served"] as? String)
            // The words follow from what pipeline model shows: the candidate a combination weighs most.
            if model["source"] as? String == "combined", model["promoted"] as? Bool == true {
                let weights = try #require(model["combination"] as? [[String: Any]])
                let leading = try #require(
                    weights.max { abs($0["weight"] as? Double ?? 0) < abs($1["weight"] as? Double ?? 0) })
                #expect(served == "combination, mostly \(leading["candidate"] as? String ?? "?")")
            } else if model["promoted"] as? Bool == false {
                #expect(served == "population")
            }
            counts[served, default: 0] += 1
            let page = try contents(out + "/users/\(user.id).html")
            #expect(page.contains("Served model: \(HTMLText.text(served))"), "\(user.id)")
            #expect(index.contains(">\(user.id)</a></td><td>\(HTMLText.text(served))</td>"), "\(user.id)")
            // The model history's serving row names the same kind.
            if model["promoted"] as? Bool == true {
                #expect(page.contains("<td>\(HTMLText.text(served))</td><td>yes, serving</td>"), "\(user.id)")
            }
        }
        for (label, count) in counts {
            #expect(index.contains("<title>\(HTMLText.text(label)): \(count)</title>"), "\(label) \(count)")
        }
    }

    @Test(
        "the cohort page says the scheduler is healthy exactly when status --check exits 0, and lists what it flags",
        arguments: TestBackend.all)
    func health(backend: TestBackend) async throws {
        let fixture = try await ReportFixture.shared(backend)
        // At the last launch, and three days later with no launch since.
        for now in [Self.now, ISO8601Instant.string(from: ReportFixture.now + 3 * 86_400)] {
            let (directory, out) = try await Self.report(fixture, now: now)
            let index = try contents(out + "/index.html")
            let check = await runCLI(["status", "--check", "--db", fixture.database.path, "--now", now])
            if check.status == 0 {
                #expect(index.contains("pipeline status --check finds no problem"), "\(now)")
                #expect(!index.contains("<ul class=\"problems\">"))
            } else {
                #expect(check.status == 1)
                #expect(!index.contains("finds no problem"), "\(now)")
                #expect(index.contains("pipeline status --check finds problems"), "\(now)")
                // Every kind of problem --check prints, for every task it names, is on the page.
                for line in check.stderr.split(separator: "\n") {
                    let kind = String(line.prefix { $0 != ":" })
                    if kind == "overdue" {
                        let task = line.dropFirst("overdue: ".count).prefix { $0 != ":" }
                        let requests = line.split(separator: " ")[2]
                        #expect(index.contains("<li>\(requests) \(task) request"), "\(line)")
                    }
                }
            }
            withExtendedLifetime(directory) {}
        }
        let later = ISO8601Instant.string(from: ReportFixture.now + 3 * 86_400)
        #expect(await runCLI(["status", "--check", "--db", fixture.database.path, "--now", later]).status == 1)
    }

    @Test(
        "a user's page shows tomorrow's forecast as pipeline predict makes it, and the candidates' scores as pipeline model"
    )
    func forecastAndScores() async throws {
        let fixture = try await ReportFixture.shared(.sqlite)
        let (directory, out) = try await Self.report(fixture)
        defer { withExtendedLifetime(directory) {} }
        for user in try await fixture.pipeline.users() where user.id != ReportFixture.newUser {
            let page = try contents(out + "/users/\(user.id).html")
            let run = await runCLI([
                "predict", "--user", user.id.rawValue, "--json", "--db", fixture.database.path, "--now", Self.now,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let forecast = try Self.json(run.stdout)
            let interval = try #require(forecast["interval"] as? [Double])
            let probability = try #require(forecast["flareProbability"] as? Double)
            #expect(
                page.contains(
                    "Forecast for \(forecast["day"] as? String ?? "?"): severity "
                        + "\(Int(forecast["severity"] as? Double ?? -1)), 80% interval \(Int(interval[0]))–\(Int(interval[1])); "
                        + "flare probability \(String(format: "%.0f%%", probability * 100))."), "\(user.id)")
            let model = try Self.json(
                await runCLI(["model", "--user", user.id.rawValue, "--json", "--db", fixture.database.path]).stdout)
            let selection = try #require(model["selection"] as? [String: Any])
            for score in try #require(selection["severity"] as? [[String: Any]]) {
                let error = try #require(score["meanAbsoluteError"] as? Double)
                #expect(
                    page.contains("<td class=\"num\">\(String(format: "%.3f", error))</td>"),
                    "\(user.id) \(score["candidate"] ?? "?")")
            }
        }
    }
}
