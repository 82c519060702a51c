import Foundation
import TestSupport
import Testing

/// `--db` as a person might spell it: the health data never lands in a file others can read.
@Suite("The database stays private whatever --db looks like")
struct DatabasePathTests {
    static let line = #"{"type":"entry","user":"alice","day":"2026-03-01","mood":3}"#

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test("an SQLite URI is refused with a clear error, and neither its literal name nor its file appears")
    func uri() async throws {
        let directory = TemporaryDirectory()
        let run = try await runBinary(
            ["ingest", "-", "--db", "file:p.sqlite?mode=rwc", "--now", "2026-03-15T12:00:00Z"], stdin: Self.line,
            currentDirectory: directory.url.path)
        #expect(run.status != 0)
        #expect(run.stderr.contains("SQLite URIs (file:…) are not accepted; give the database file's path"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])
    }

    @Test("a dangling symbolic link: the database is created at its target with mode 0600")
    func danglingLink() async throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createSymbolicLink(
            atPath: directory.path("link.sqlite"), withDestinationPath: "real.sqlite")
        let run = try await runBinary(
            ["ingest", "-", "--db", "link.sqlite", "--now", "2026-03-15T12:00:00Z"], stdin: Self.line,
            currentDirectory: directory.url.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.mode(directory.path("real.sqlite")) == 0o600)
        let export = await runCLI(["export", "--user", "alice", "--db", directory.path("link.sqlite")])
        #expect(export.stdout.contains(#""mood":3"#))
    }
}
