import Foundation
import TestSupport
import Testing

/// `pipeline ingest`, `export`, `status` and `generate` as a user runs them.
@Suite("Ingest, export, status and generate", .timeLimit(.minutes(10)))
struct IngestCommandTests {
    static let now = "2026-03-15T12:00:00Z"

    @Test("good lines are stored, a bad line is reported by line and field, and the exit status is 65")
    func ingestReportsBadLines() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let input = """
            {"type":"user","user":"alice","timeZone":"Europe/Berlin"}
            {"type":"entry","user":"alice","day":"2026-03-01","symptomSeverity":4,"mood":3,"sleepDuration":25200}

            {"type":"entry","user":"alice","day":"2026-03-02","symptomSeverity":14}
            {"type":"health","user":"alice","day":"2026-03-01","hrv":48.2,"restingHeartRate":61,"stepCount":8042,"sleepDuration":30000}
            """
        let run = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: input)
        #expect(run.status == 65)
        #expect(run.stderr.contains("line 4: symptomSeverity: must be between 0 and 10"))
        #expect(run.stderr.contains("stored 3 of 4 records"))
        let export = await runCLI(["export", "--user", "alice", "--db", db])
        #expect(export.status == 0)
        #expect(
            export.stdout
                == #"{"user":"alice","day":"2026-03-01","symptomSeverity":4,"mood":3,"hrv":48.2,"restingHeartRate":61,"stepCount":8042,"sleepDuration":25200,"notes":null,"sources":{"hrv":"health","restingHeartRate":"health","stepCount":"health","sleepDuration":"user"}}"#
                .replacingOccurrences(of: #""notes":null,"#, with: "") + "\n")
    }

    @Test("a clean ingestion is silent and exits 0; --json prints the report")
    func silentOnSuccess() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let input = #"{"type":"entry","user":"bob","day":"2026-03-01","mood":2}"#
        let quiet = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: input)
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let json = await runCLI(["ingest", "-", "--db", db, "--now", Self.now, "--json"], stdin: input)
        #expect(json.status == 0)
        #expect(json.stdout.contains(#""stored":{"entry":1}"#))
        #expect(json.stdout.contains(#""rejected":0"#))
    }

    @Test("--strict stores nothing when one line is bad")
    func strict() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let input = """
            {"type":"entry","user":"bob","day":"2026-03-01","mood":2}
            {"type":"entry","user":"bob","day":"2026-03-02","mood":9}
            """
        let run = await runCLI(["ingest", "-", "--strict", "--db", db, "--now", Self.now], stdin: input)
        #expect(run.status == 65)
        #expect(run.stderr.contains("line 2: mood: must be between 1 and 5"))
        #expect(run.stderr.contains("nothing was stored"))
        // Nothing stored where there was no database: none is left behind.
        #expect(!FileManager.default.fileExists(atPath: db))
        let status = await runCLI(["status", "--db", db, "--json"])
        #expect(status.status == 78 && status.stderr.contains("there is no database"))
        // Into a database that exists, it stays as it was.
        #expect(await runCLI(["init", "--db", db]).status == 0)
        let again = await runCLI(["ingest", "-", "--strict", "--db", db, "--now", Self.now], stdin: input)
        #expect(again.status == 65)
        let kept = await runCLI(["status", "--db", db, "--json"])
        #expect(kept.stdout.contains(#""users":0"#))
        #expect(kept.stdout.contains(#""dailyLogs":0"#))
    }

    @Test("status names queued watch items of kinds this version does not know")
    func statusNamesUnknownKinds() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let input = """
            {"type":"watch","user":"carol","kind":"medicationTaken","payload":{"day":"2026-03-01","dose":1}}
            {"type":"watch","user":"carol","kind":"symptomLog","payload":{"day":"2026-03-01","symptomSeverity":3}}
            """
        let ingest = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: input)
        #expect(ingest.status == 0)
        let text = await runCLI(["status", "--db", db])
        #expect(text.stdout.contains("1 medicationTaken (unknown kind, kept)"))
        let json = await runCLI(["status", "--db", db, "--json"])
        #expect(json.stdout.contains(#""watchQueue":{"medicationTaken":1}"#))
        #expect(json.stdout.contains(#""unknownWatchKinds":["medicationTaken"]"#))
        #expect(json.stdout.contains(#""dailyLogs":1"#))
    }

    @Test("export of a user the database has never seen fails with a clear message")
    func exportUnknownUser() async throws {
        let directory = TemporaryDirectory()
        #expect(await runCLI(["init", "--db", directory.path("p.sqlite")]).status == 0)
        let run = await runCLI(["export", "--user", "nobody", "--db", directory.path("p.sqlite")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no user 'nobody'"))
    }

    @Test("generate prints the same bytes for the same seed and different bytes for another")
    func generateIsDeterministic() async throws {
        let first = await runCLI(["generate", "--users", "5", "--days", "40", "--seed", "3", "--now", Self.now])
        let second = await runCLI(["generate", "--users", "5", "--days", "40", "--seed", "3", "--now", Self.now])
        let other = await runCLI(["generate", "--users", "5", "--days", "40", "--seed", "4", "--now", Self.now])
        #expect(first.status == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout != other.stdout)
    }

    @Test("a generated cohort has what real input has, ends yesterday, and ingests without a rejection")
    func generatedCohort() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        let generated = await runCLI(["generate", "--users", "16", "--days", "120", "--now", Self.now])
        let lines = generated.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(#""kind":"symptomLog""#) })
        #expect(lines.contains { $0.contains(#""kind":"healthCheckIn""#) })
        #expect(lines.contains { $0.contains(#""timeZone":"Pacific/Kiritimati""#) })
        #expect(lines.contains { $0.contains(#""timeZone":"Pacific/Honolulu""#) })
        #expect(lines.contains { $0.contains(#""type":"entry""#) && $0.contains("sleepDuration") })
        #expect(lines.contains { $0.contains(#""type":"settings""#) })
        let ingest = await runCLI(["ingest", "-", "--db", db, "--now", Self.now], stdin: generated.stdout)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        // Kiritimati (UTC+14) is already on the 16th at 12:00Z, so its last day is the 15th;
        // Honolulu (UTC−10) is on the 15th, so its last day is the 14th.
        let kiri = await runCLI(["export", "--user", "user-00005", "--db", db])
        #expect(kiri.stdout.split(separator: "\n").last?.contains(#""day":"2026-03-15""#) == true)
        let hono = await runCLI(["export", "--user", "user-00006", "--db", db])
        #expect(hono.stdout.split(separator: "\n").last?.contains(#""day":"2026-03-14""#) == true)
        // Some days are missing entirely, and a day the user typed sleep keeps the user's value.
        let rows = kiri.stdout.split(separator: "\n")
        #expect(rows.count < 120)
        let status = await runCLI(["status", "--db", db, "--json"])
        #expect(status.stdout.contains(#""watchQueue":{}"#), "every known-kind watch item was applied")
        let all = (1...16).map { String(format: "user-%05d", $0) }
        var typedSleep = 0
        for user in all {
            let export = await runCLI(["export", "--user", user, "--db", db])
            typedSleep += export.stdout.components(separatedBy: #""sleepDuration":"user""#).count - 1
        }
        #expect(typedSleep > 0, "some days carry a user-typed sleep that health did not overwrite")
    }

    @Test("two processes ingesting the same days at once leave one row per day and keep every user value")
    func twoProcesses() async throws {
        let directory = TemporaryDirectory()
        let db = directory.path("p.sqlite")
        var entries = ""
        var health = ""
        for offset in 0..<300 {
            let day = Calendar(identifier: .gregorian).date(
                byAdding: .day, value: offset, to: Date(timeIntervalSince1970: 1_735_689_600))!  // 2025-01-01
            let text = ISO8601DateFormatter().string(from: day).prefix(10)
            entries +=
                #"{"type":"entry","user":"dana","day":"\#(text)","symptomSeverity":\#(offset % 11),"sleepDuration":20000}"#
                + "\n"
            health += #"{"type":"health","user":"dana","day":"\#(text)","hrv":50,"sleepDuration":30000}"# + "\n"
        }
        async let first = runBinary(["ingest", "-", "--db", db, "--now", Self.now], stdin: entries)
        async let second = runBinary(["ingest", "-", "--db", db, "--now", Self.now], stdin: health)
        let (a, b) = try await (first, second)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        let export = await runCLI(["export", "--user", "dana", "--db", db])
        let rows = export.stdout.split(separator: "\n")
        #expect(rows.count == 300)
        #expect(rows.allSatisfy { $0.contains(#""sleepDuration":20000"#) && $0.contains(#""hrv":50"#) })
    }
}
