import Foundation
import TestSupport
import Testing

/// `--db postgresql://…` is libpq's URL: what it leaves out, libpq's environment fills in, as it
/// does for psql — so an operator's usual PGHOST, PGUSER and password file work unchanged.
@Suite("PostgreSQL addresses")
struct PostgreSQLAddressTests {
    /// The test server's socket folder, user and database, read from its URL
    /// (`postgresql:///DB?host=DIR&user=USER`, as scripts/test.sh sets it).
    static func server() throws -> (host: String, user: String, database: String) {
        let url = try #require(URLComponents(string: TestBackend.postgresServerURL))
        let items = url.queryItems ?? []
        let host = try #require(items.first { $0.name == "host" }?.value, "the test server's URL names its socket")
        let user = items.first { $0.name == "user" }?.value ?? "pipeline"
        return (host, user, String(url.path.dropFirst()))
    }

    @Test(
        "a URL with no host or user connects through PGHOST and PGUSER, and the password file is read",
        .postgreSQL)
    func libpqEnvironment() async throws {
        let (host, user, database) = try Self.server()
        let folder = TemporaryDirectory()
        // The test server trusts local connections, so the password is not checked; the file must
        // still be acceptable to libpq (mode 0600), or it warns on stderr.
        let passwordFile = folder.path("pgpass")
        try Data("*:*:*:\(user):unused\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        chmod(passwordFile, 0o600)
        let schema = "t_env_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let address = "postgresql:///\(database)?options=-csearch_path%3D\(schema)"
        let environment = ["PGHOST": host, "PGUSER": user, "PGPASSFILE": passwordFile, "PGSSLMODE": "disable"]
        let ingest = try await runBinary(
            ["ingest", "-", "--db", address, "--now", "2026-03-15T12:00:00Z"],
            stdin: #"{"type":"entry","user":"ada","day":"2026-03-15","symptomSeverity":4}"# + "\n",
            environment: environment, timeLimit: .seconds(180))
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stderr.isEmpty)
        let export = try await runBinary(
            ["export", "--user", "ada", "--db", address], environment: environment, timeLimit: .seconds(180))
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains(#""symptomSeverity":4"#))
        // Without the environment, the same URL looks for a server on the default socket.
        let without = try await runBinary(
            ["status", "--db", address], environment: ["PGHOST": "/nonexistent"], timeLimit: .seconds(180))
        #expect(without.status == 75, "\(without.stderr)")
        #expect(without.stderr.contains("/nonexistent"))
    }

    /// Such a string was taken for an SQLite path: `ingest` created a file of that name, and every message
    /// echoed it, password and all.
    @Test(
        "a libpq keyword/value string is a PostgreSQL database, and its password is never printed",
        .postgreSQL)
    func keywordValueString() async throws {
        let (host, user, database) = try Self.server()
        let folder = TemporaryDirectory()
        let secret = "s3cret-" + UUID().uuidString.prefix(8)
        let schema = "t_kv_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let address =
            "host=\(host) dbname=\(database) user=\(user) password='\(secret) x' options='-csearch_path=\(schema)'"
        let ingest = try await runBinary(
            ["ingest", "-", "--db", address, "--now", "2026-03-15T12:00:00Z"],
            stdin: #"{"type":"entry","user":"ada","day":"2026-03-15","symptomSeverity":4}"# + "\n",
            timeLimit: .seconds(180), currentDirectory: folder.url.path)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "no file was created")
        let status = try await runBinary(["status", "--db", address], timeLimit: .seconds(180))
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("password=***"), "\(status.stdout)")
        #expect(!status.stdout.contains(secret) && !status.stderr.contains(secret))

        let down = try await runBinary(
            ["status", "--db", "host=/nonexistent dbname=\(database) password=\(secret)"], timeLimit: .seconds(180))
        #expect(down.status == 75, "\(down.stderr)")
        #expect(down.stderr.contains("password=***"))
        #expect(!down.stderr.contains(secret) && !down.stdout.contains(secret))
    }
}
