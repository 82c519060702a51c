import Foundation
import TestSupport
import Testing

/// What will not pass by itself exits 78 (`EX_CONFIG`) and says what to change; what may pass (a server
/// down or restarting) stays 75, so cron's next launch tries again; and `status --check` exits 1 whenever it
/// cannot say "healthy", so a monitor that pages on 1 pages on all of them.
@Suite("Configuration errors exit 78, a server out of reach 75, and status --check 1 for both")
struct ConfigurationErrorTests {
    /// The test server's password-checked role (scripts/lib/postgres.sh), as (role, password).
    static var passwordRole: (role: String, password: String)? {
        guard let value = ProcessInfo.processInfo.environment["PIPELINE_TEST_POSTGRES_PASSWORD_ROLE"],
            let colon = value.firstIndex(of: ":")
        else { return nil }
        return (String(value[..<colon]), String(value[value.index(after: colon)...]))
    }

    @Test(
        "a wrong role, database or password exits 78, a server out of reach 75, and status --check 1 for each",
        .enabled(if: TestBackend.all.contains(.postgresql)))
    func postgreSQL() async throws {
        let (host, user, database) = try PostgreSQLAddressTests.server()
        var refused: [(address: String, says: String)] = [
            ("postgresql:///\(database)?host=\(host)&user=nobody_\(UUID().uuidString.prefix(8))", "CREATE ROLE"),
            ("postgresql:///no_such_database?host=\(host)&user=\(user)", "CREATE DATABASE"),
        ]
        if let (role, password) = Self.passwordRole {
            refused.append(("postgresql:///\(database)?host=\(host)&user=\(role)", "password file"))
            refused.append(("postgresql://\(role):not-\(password)@/\(database)?host=\(host)", "password file"))
            // The right password gets in: the database is there but was never set up, so it is no pipeline
            // database yet (78 too, naming 'pipeline init').
            let right = try await runBinary(
                ["status", "--db", "postgresql://\(role):\(password)@/\(database)?host=\(host)"],
                timeLimit: .seconds(120))
            #expect(right.status == 78 && right.stderr.contains("there is no database"), "\(right.stderr)")
        }
        for (address, says) in refused {
            for command in [["status"], ["run"], ["ingest", "-"], ["retrain"]] {
                let run = try await runBinary(command + ["--db", address], timeLimit: .seconds(120))
                #expect(run.status == 78, "\(command) \(address): \(run.stderr)")
                #expect(run.stderr.contains("will not pass by itself") && run.stderr.contains(says), "\(run.stderr)")
                #expect(!run.stderr.contains("try again later"), "\(run.stderr)")
            }
            let check = try await runBinary(["status", "--check", "--db", address], timeLimit: .seconds(120))
            #expect(check.status == 1, "\(address): \(check.stderr)")
            #expect(check.stderr.contains(says) && check.stdout.isEmpty, "\(check.stderr)")
        }

        let away = "postgresql:///\(database)?host=/nonexistent&user=\(user)"
        let down = try await runBinary(["status", "--db", away], timeLimit: .seconds(120))
        #expect(down.status == 75, "\(down.stderr)")
        #expect(down.stderr.contains("try again later"), "\(down.stderr)")
        let check = try await runBinary(["status", "--check", "--db", away], timeLimit: .seconds(120))
        #expect(check.status == 1, "\(check.stderr)")
        #expect(check.stderr.contains("/nonexistent") && check.stdout.isEmpty)
    }

    @Test("a path with no database exits 78 and names 'pipeline init'; status --check exits 1")
    func missingDatabase() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("typo.sqlite")
        let status = await runCLI(["status", "--db", path])
        #expect(status.status == 78, "\(status.stderr)")
        #expect(status.stderr.contains("there is no database at \(path)"))
        #expect(status.stderr.contains("'pipeline init'"), "\(status.stderr)")
        let check = await runCLI(["status", "--check", "--db", path])
        #expect(check.status == 1)
        #expect(check.stderr.contains("there is no database at \(path)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("a file that is not an SQLite database exits 78 with what it is, without SQLite's SQL")
    func notADatabase() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("notes.txt")
        let text = String(repeating: "not a database, just some text\n", count: 200)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        for command in [["status"], ["ingest", "-"], ["init"]] {
            let run = await runCLI(command + ["--db", path])
            #expect(run.status == 78, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("not an SQLite database"), "\(command): \(run.stderr)")
            #expect(!run.stderr.contains("SELECT") && !run.stderr.contains("(in:"), "\(command): \(run.stderr)")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "the file was not changed")
    }
}
