import Foundation
import TestSupport
import Testing

/// `pipeline report` as a user runs it.
@Suite("pipeline report", .timeLimit(.minutes(10)))
struct ReportCommandTests {
    @Test("report --out writes the site and prints the index's path; --json says how many files")
    func writes() async throws {
        let directory = try await ModelCommandTests.retrained(users: 3, days: 60)
        let db = directory.path("p.sqlite")
        let out = directory.path("site")
        let run = await runCLI(["report", "--out", out, "--db", db, "--now", ModelCommandTests.now])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == out + "/index.html\n")
        #expect(run.stderr == "")
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index.contains("<a href=\"users/user-00002.html\">user-00002</a>"))
        let json = await runCLI([
            "report", "--out", out, "--db", db, "--now", ModelCommandTests.now, "--user", "user-00002", "--redact",
            "--json",
        ])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout == "{\"index\":\"\(out)/index.html\",\"files\":2,\"users\":3}\n")
    }

    @Test("an unknown --user exits 1 naming the user; a file for --out exits 1 naming the path")
    func errors() async throws {
        let directory = try await ModelCommandTests.retrained(users: 1, days: 30)
        let db = directory.path("p.sqlite")
        let unknown = await runCLI(["report", "--out", directory.path("site"), "--db", db, "--user", "nobody"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "Error: no user 'nobody' in the database; ingest a record for them first\n")
        let file = directory.path("p.sqlite")
        let taken = await runCLI(["report", "--out", file, "--db", db])
        #expect(taken.status == 1)
        #expect(taken.stderr == "Error: cannot write the report to '\(file)': it is not a folder\n")
        let missing = await runCLI(["report", "--db", db])
        #expect(missing.status == 64)
    }
}
