import Foundation
import TestSupport
import Testing

@testable import Storage

/// What an operator sees when a stored zone no longer resolves (DESIGN §4: an error, never UTC),
/// and the way out that the error names.
@Suite("A stored time zone that does not resolve")
struct StoredTimeZoneCommandTests {
    static let now = "2026-04-04T00:00:00Z"

    @Test(
        "run fails naming the user and the zone; ingest refuses only that user's days after today in UTC until a user record sets the zone",
        arguments: TestBackend.all)
    func unresolvedZone(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let db = database.path
        let users = """
            {"type":"user","user":"ada","timeZone":"Asia/Kolkata"}
            {"type":"user","user":"bob","timeZone":"Europe/Berlin"}
            """
        #expect(await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: users).status == 0)
        // What a tzdata that dropped the name, or a hand edit, leaves behind.
        try Store.executeForTesting(at: db, "UPDATE users SET time_zone = 'Mars/Olympus_Mons' WHERE id = 'ada'")

        let run = await runCLI(["run", "--db", db, "--now", Self.now])
        #expect(run.status == 1)
        #expect(run.stderr.contains("user ada has the time zone 'Mars/Olympus_Mons' stored"))
        #expect(run.stderr.contains("Set the user's zone again with `pipeline ingest`"))

        // Tomorrow in Kolkata and in Berlin; a day on or before today in UTC is tomorrow or earlier in every zone.
        let entries = """
            {"type":"entry","user":"ada","day":"2026-04-05","mood":3}
            {"type":"entry","user":"bob","day":"2026-04-05","mood":4}
            {"type":"entry","user":"ada","day":"2026-04-04","mood":2}
            """
        let refused = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: entries)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("line 1: user: ada's stored time zone 'Mars/Olympus_Mons' is no IANA"))
        #expect(!refused.stderr.contains("line 2") && !refused.stderr.contains("line 3"))
        #expect(refused.stderr.contains("stored 2 of 3 records"))

        let fixed = """
            {"type":"user","user":"ada","timeZone":"Asia/Kolkata"}
            {"type":"entry","user":"ada","day":"2026-04-05","mood":3}
            """
        #expect(await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: fixed).status == 0)
        let after = await runCLI(["run", "--db", db, "--now", Self.now])
        #expect(after.status == 0, "\(after.stderr)")
    }
}
