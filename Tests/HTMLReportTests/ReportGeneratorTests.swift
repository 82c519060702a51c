import Foundation
import HTMLReport
import Learning
import PipelineKit
import Storage
import TestSupport
import Testing

/// `ReportGenerator` on a database after a week of operation, on each backend: what the pages say is
/// what the store holds, the files are private, and nothing on a page reaches outside the report.
@Suite("Report of a cohort", .timeLimit(.minutes(10)))
struct ReportGeneratorTests {
    @Test("writes index.html and one page per user, 0600 files in 0700 folders", arguments: TestBackend.all)
    func files(backend: TestBackend) async throws {
        let fixture = try await ReportFixture.shared(backend)
        let (site, out) = try await fixture.report()
        defer { withExtendedLifetime(site) {} }
        let users = try await fixture.pipeline.users().map(\.id.rawValue).sorted()
        #expect(HTMLReportTests.files(in: out) == ["index.html"] + users.map { "users/\($0).html" })
        #expect(mode(of: out) == 0o700)
        #expect(mode(of: out + "/users") == 0o700)
        for file in HTMLReportTests.files(in: out) { #expect(mode(of: out + "/" + file) == 0o600, "\(file)") }
        #expect(try contents(out + "/index.html").contains("readable by their owner only"))
    }

    @Test("a page refers to nothing outside the report: no script, no remote address, links to existing pages")
    func selfContained() async throws {
        let fixture = try await ReportFixture.shared(.sqlite)
        let (site, out) = try await fixture.report()
        defer { withExtendedLifetime(site) {} }
        for file in HTMLReportTests.files(in: out) {
            let page = try contents(out + "/" + file)
            #expect(!page.contains("<script"), "\(file)")
            #expect(!page.contains(" src="), "\(file)")
            #expect(!page.contains("url(http") && !page.contains("@import"), "\(file)")
            // The SVG namespace is a name, never fetched; it is the only address allowed.
            let addresses = page.matches(of: /https?:/).count
            let namespaces = page.ranges(of: "http://www.w3.org/2000/svg").count
            #expect(addresses == namespaces, "\(file) names a remote address")
            let folder = (file as NSString).deletingLastPathComponent
            for link in page.matches(of: /href="([^"#]+)"/) {
                let target = ((out as NSString).appendingPathComponent(folder) as NSString)
                    .appendingPathComponent(String(link.1))
                #expect(FileManager.default.fileExists(atPath: target), "\(file) links to missing \(link.1)")
            }
        }
    }

    /// Each user counted as `pipeline model` names what serves them: the combination by the candidate it weighs
    /// most, the population model for a user never retrained.
    @Test("the cohort page counts users by the kind of model the store serves them", arguments: TestBackend.all)
    func servedModels(backend: TestBackend) async throws {
        let fixture = try await ReportFixture.shared(backend)
        let (site, out) = try await fixture.report()
        defer { withExtendedLifetime(site) {} }
        var counts: [String: Int] = [:]
        for user in try await fixture.pipeline.users() {
            guard let stored = try await fixture.pipeline.store.servingModel(scope: user.id.rawValue) else {
                counts["population", default: 0] += 1
                continue
            }
            let artifact = try ModelArtifact(json: Data(stored.json.utf8))
            #expect(artifact.source == .combined)
            let weights = try #require(artifact.combination)
            let leading = weights.sorted { abs($0.weight) > abs($1.weight) }[0].candidate.rawValue
            counts["combination, mostly \(leading)", default: 0] += 1
        }
        let users = try await fixture.pipeline.users().count
        #expect(counts.values.reduce(0, +) == users)
        let index = try contents(out + "/index.html")
        for (label, count) in counts { #expect(index.contains("<title>\(label): \(count)</title>"), "\(label)") }
        if counts["population"] == nil { #expect(index.contains("<title>population: 0</title>")) }
    }

    @Test("the scheduler section counts the runs per day and the requests the store holds", arguments: TestBackend.all)
    func scheduler(backend: TestBackend) async throws {
        let fixture = try await ReportFixture.shared(backend)
        let (site, out) = try await fixture.report()
        defer { withExtendedLifetime(site) {} }
        let index = try contents(out + "/index.html")
        let runs = try await fixture.pipeline.store.taskRuns()
        let utc = TimeZone(identifier: "UTC")!
        for identifier in ["health-refresh", "ml-retrain", "engagement-daily", "weekly-insight"] {
            let mine = runs.filter { $0.identifier == identifier && $0.outcome == .success }
            #expect(!mine.isEmpty, "\(identifier) ran in the fixture")
            let byDay = Dictionary(grouping: mine) { Day(containing: $0.startedAt, in: utc) }
            for (day, dayRuns) in byDay {
                #expect(index.contains("<title>\(day): \(dayRuns.count) succeeded</title>"), "\(identifier) \(day)")
            }
        }
        let last = try #require(try await fixture.pipeline.store.lastLaunch())
        #expect(index.contains("<td>last launch</td><td>\(ISO8601Instant.string(from: last.launchedAt))</td>"))
        let waiting = try await fixture.pipeline.store.taskRequests().filter {
            $0.leaseOwner == nil && ($0.earliestBeginAt ?? $0.submittedAt) > ReportFixture.now
        }
        #expect(
            index.contains(
                "<td>waiting until their time</td><td class=\"num\">\(waiting.count)</td>"))
    }

    @Test("a user's page charts the logged days, the served model's forecasts, sources, associations and history")
    func userPage() async throws {
        let fixture = try await ReportFixture.shared(.sqlite)
        let (site, out) = try await fixture.report()
        defer { withExtendedLifetime(site) {} }
        let models = PersonalModels(pipeline: fixture.pipeline)
        var personal: (UserID, ServedModel)?
        for user in try await fixture.pipeline.users() {
            if let served = try await models.servedModel(for: user.id),
                (served.artifact.combination?.first { $0.candidate == .personal }?.weight ?? 0)
                    >= PersonalModels.insightWeight
            {
                personal = (user.id, served)
                break
            }
        }
        let (user, served) = try #require(personal, "a generated user with 200 days weighs their personal model")
        let page = try contents(out + "/users/\(user).html")
        // Tomorrow's forecast is what 'pipeline predict' says, and every weight of the combination is listed.
        let zone = try #require(try await fixture.pipeline.user(user)).timeZone
        let tomorrow = Day(containing: ReportFixture.now, in: zone).adding(days: 1)
        let forecast = try await models.forecast(user: user, for: tomorrow)
        let interval = try #require(forecast.interval)
        #expect(
            page.contains(
                "Forecast for \(tomorrow): severity \(Int(forecast.severity)), 80% interval "
                    + "\(Int(interval.lowerBound))–\(Int(interval.upperBound))"))
        for weight in try #require(served.artifact.combination) {
            #expect(page.contains("<td class=\"num\">\(String(format: "%.2f", weight.weight))</td>"))
        }
        #expect(page.contains("80% interval") && page.contains("series-interval"))
        for line in PersonalModels.describedAssociations(from: served.artifact, spec: .symptomForecast).prefix(2)
        where abs(line.effect) >= 0.05 {
            #expect(page.contains(HTMLText.text(line.sentence)))
            #expect(page.contains(String(format: "%+.4f", line.association.perUnit)))
        }
        let history = try await fixture.pipeline.store.modelHistory(scope: user.rawValue)
        for entry in history { #expect(page.contains(HTMLText.text(entry.reason))) }
        #expect(page.contains("yes, serving"))
        // Sources: the table's day counts are the store's.
        let today = Day(containing: ReportFixture.now, in: try #require(try await fixture.pipeline.user(user)).timeZone)
        let logs = try await fixture.pipeline.dailyLogs(
            user: user, from: today.adding(days: -180), through: today.adding(days: -1))
        let typed = logs.filter { $0.source(of: .sleepDuration) == .user }.count
        let synced = logs.filter { $0.source(of: .sleepDuration) == .health }.count
        #expect(
            page.contains("<td>sleep</td><td class=\"num\">\(typed) days</td><td class=\"num\">\(synced) days</td>"))
        // The logged severity and the forecasts are drawn as lines.
        #expect(page.contains("<g class=\"line series-0\"><polyline"))
        #expect(page.contains("<g class=\"line series-1\"><polyline"))
        // Notes are the person's, escaped.
        let notes = try contents(out + "/users/\(ReportFixture.noteUser).html")
        #expect(notes.contains(HTMLText.text(ReportFixture.note)))
        #expect(!notes.contains("<b>awful"))
        #expect(!notes.contains("\u{1B}"))
    }

    @Test("--redact shows the same pseudonyms in every report, and no id, note or zone", arguments: TestBackend.all)
    func redact(backend: TestBackend) async throws {
        let fixture = try await ReportFixture.shared(backend)
        let (firstSite, first) = try await fixture.report { $0.redact = true }
        let (secondSite, second) = try await fixture.report { $0.redact = true }
        defer { withExtendedLifetime((firstSite, secondSite)) {} }
        let users = try await fixture.pipeline.users()
        let names = users.map { Pseudonyms.pseudonym(of: $0.id) }
        #expect(Set(names).count == users.count)
        #expect(HTMLReportTests.files(in: first) == ["index.html"] + names.sorted().map { "users/\($0).html" })
        #expect(HTMLReportTests.files(in: first) == HTMLReportTests.files(in: second))
        for file in HTMLReportTests.files(in: first) {
            let page = try contents(first + "/" + file)
            for user in users { #expect(!page.contains(user.id.rawValue), "\(file) shows \(user.id)") }
            #expect(!page.contains("awful"), "\(file) shows a note")
            #expect(!page.contains("Europe/Berlin"), "\(file) shows a zone")
            #expect(try contents(second + "/" + file) == page, "\(file) differs between two redacted reports")
        }
    }

    @Test("--user writes the cohort page and that user's page only; an unknown user is an error")
    func oneUser() async throws {
        let fixture = try await ReportFixture.shared(.sqlite)
        let (site, out) = try await fixture.report { $0.user = ReportFixture.newUser }
        defer { withExtendedLifetime(site) {} }
        #expect(HTMLReportTests.files(in: out) == ["index.html", "users/newcomer.html"])
        let index = try contents(out + "/index.html")
        #expect(index.contains("<a href=\"users/newcomer.html\">newcomer</a>"))
        #expect(!index.contains("href=\"users/user-00001.html\""))
        let page = try contents(out + "/users/newcomer.html")
        // A newcomer's served model is named, and why.
        #expect(page.contains("Served model: combination, mostly ") && page.contains("serving: a combination of "))
        await #expect(throws: ReportError.self) {
            _ = try await fixture.report { $0.user = UserID.literal("nobody") }
        }
    }

    @Test("an output path that is a file is refused with its name")
    func outputIsAFile() async throws {
        let fixture = try await ReportFixture.shared(.sqlite)
        let directory = TemporaryDirectory("report")
        let path = directory.path("taken")
        try "x".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try await ReportGenerator.write(pipeline: fixture.pipeline, options: ReportOptions(outputPath: path))
            Issue.record("a file was taken for a folder")
        } catch {
            #expect(error.description == "cannot write the report to '\(path)': it is not a folder")
        }
    }

    @Test("a page that was readable by others is replaced by a 0600 one")
    func tightensAnOldPage() async throws {
        let fixture = try await ReportFixture.shared(.sqlite)
        let directory = TemporaryDirectory("report")
        let out = directory.path("site")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try "old".write(toFile: out + "/index.html", atomically: true, encoding: .utf8)
        chmod(out + "/index.html", 0o644)
        var options = ReportOptions(outputPath: out)
        options.user = ReportFixture.newUser
        _ = try await ReportGenerator.write(pipeline: fixture.pipeline, options: options)
        #expect(mode(of: out + "/index.html") == 0o600)
        #expect(try contents(out + "/index.html").hasPrefix("<!DOCTYPE html>"))
    }
}
