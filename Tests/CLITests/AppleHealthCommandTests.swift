import Foundation
import TestSupport
import Testing

@Suite("Ingest an Apple Health export")
struct AppleHealthCommandTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/IngestionTests/AppleHealth/Fixtures")

    @Test("a real export lands as health values in the user's days, with a summary on stderr")
    func importsFixture() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let export = Self.fixtures.appendingPathComponent("tdda-applehealthdata-export6s3sample.xml").path
        let run = await runCLI([
            "ingest", "--format", "apple-health", export, "--user", "nick", "--time-zone", "Europe/London", "--db", db,
            "--now", "2026-03-15T12:00:00Z",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("15 records read"))
        #expect(run.stderr.contains("days written: 1"))
        let rows = await runCLI(["export", "--user", "nick", "--db", db])
        // Ten StepCount records on 2014-09-13 sum to 2,517 (worked out in AppleHealthFixtureTests).
        #expect(
            rows.stdout == #"{"user":"nick","day":"2014-09-13","stepCount":2517,"sources":{"stepCount":"health"}}"#
                + "\n")
        let status = await runCLI(["status", "--db", db, "--json"])
        #expect(status.stdout.contains(#""users":1"#))
    }

    @Test("a value the user typed earlier is kept when the export brings a device value for the day")
    func userValueWins() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let typed = #"{"type":"entry","user":"nick","day":"2014-09-13","stepCount":4000}"#
        _ = await runCLI(["ingest", "-", "--db", db, "--now", "2026-03-15T12:00:00Z"], stdin: typed)
        let export = Self.fixtures.appendingPathComponent("tdda-applehealthdata-export6s3sample.xml").path
        let run = await runCLI(["ingest", "--format", "apple-health", export, "--user", "nick", "--db", db])
        #expect(run.status == 0)
        let rows = await runCLI(["export", "--user", "nick", "--db", db])
        #expect(rows.stdout.contains(#""stepCount":4000"#))
        #expect(rows.stdout.contains(#""stepCount":"user""#))
    }

    @Test("a missing user, a malformed export and a missing file each fail with their own status")
    func errors() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let export = Self.fixtures.appendingPathComponent("tdda-applehealthdata-export6s3sample.xml").path
        let noUser = await runCLI(["ingest", "--format", "apple-health", export, "--db", db])
        #expect(noUser.status == 64)
        #expect(noUser.stderr.contains("needs --user"))
        let broken = directory.path("broken.xml")
        try Data("<HealthData><Record type=\"x\"".utf8).write(to: URL(fileURLWithPath: broken))
        let malformed = await runCLI(["ingest", "--format", "apple-health", broken, "--user", "nick", "--db", db])
        #expect(malformed.status == 65)
        let missing = await runCLI([
            "ingest", "--format", "apple-health", directory.path("nope.xml"), "--user", "nick", "--db", db,
        ])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.xml"))
        let status = await runCLI(["status", "--db", db, "--json"])
        #expect(status.stdout.contains(#""dailyLogs":0"#))
    }
}
