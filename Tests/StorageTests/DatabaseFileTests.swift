import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// The SQLite file holds health data: it and its -wal and -shm files are readable by their owner
/// only, however `--db` spells the path.
@Suite("The database file is private")
struct DatabaseFileTests {
    /// Opens a store at `path`, writes a row so that the -wal and -shm files exist, and returns the
    /// modes of the database at `file` and of its two companions while the store is open.
    static func modesAfterWriting(through path: String, file: String) async throws -> [String: Int] {
        let store = try Store(path: path, clock: ManualClock(Date(iso: "2026-03-15T12:00:00Z")))
        var entry = UserEntry(user: .literal("ada"), day: .literal("2026-03-01"))
        entry.symptomSeverity = .set(4)
        try await store.write(entry)
        var modes: [String: Int] = [:]
        for suffix in ["", "-wal", "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file + suffix)
            modes["database" + suffix] = try #require(attributes[.posixPermissions] as? Int) & 0o777
        }
        withExtendedLifetime(store) {}
        return modes
    }

    static let allPrivate = ["database": 0o600, "database-wal": 0o600, "database-shm": 0o600]

    @Test("a plain path: the database, -wal and -shm are 0600")
    func plainPath() async throws {
        let directory = TemporaryDirectory()
        let file = directory.path("pipeline.sqlite")
        #expect(try await Self.modesAfterWriting(through: file, file: file) == Self.allPrivate)
    }

    @Test("a symbolic link to a file not yet created: the target is created 0600, with its -wal and -shm")
    func danglingLink() async throws {
        let directory = TemporaryDirectory()
        let target = directory.path("real.sqlite")
        let link = directory.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try await Self.modesAfterWriting(through: link, file: target) == Self.allPrivate)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    }

    @Test("a relative link through a second link: the final target is created 0600")
    func relativeLinkChain() async throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("data"), withIntermediateDirectories: true)
        let first = directory.path("first.sqlite")
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "data/second.sqlite")
        try FileManager.default.createSymbolicLink(
            atPath: directory.path("data/second.sqlite"), withDestinationPath: "real.sqlite")
        let target = directory.path("data/real.sqlite")
        #expect(try await Self.modesAfterWriting(through: first, file: target) == Self.allPrivate)
    }

    @Test("a link to an existing database opens that database")
    func linkToExisting() async throws {
        let directory = TemporaryDirectory()
        let target = directory.path("real.sqlite")
        _ = try await Self.modesAfterWriting(through: target, file: target)
        let link = directory.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let store = try Store(path: link, clock: ManualClock(Date(iso: "2026-03-15T12:00:00Z")))
        #expect(try await store.dailyLog(user: .literal("ada"), day: .literal("2026-03-01"))?.symptomSeverity == 4)
    }

    @Test("an SQLite URI is refused with a message saying to give a path, and no file appears")
    func uriRefused() async throws {
        let directory = TemporaryDirectory()
        let uri = "file:" + directory.path("pipeline.sqlite") + "?mode=rwc"
        #expect {
            _ = try Store(path: uri, clock: ManualClock(Date(iso: "2026-03-15T12:00:00Z")))
        } throws: { error in
            "\(error)".contains("give the database file's path")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: uri))
    }

    @Test("SQLite's in-memory name is refused with a message saying to give a path, and no file of that name appears")
    func inMemoryRefused() async throws {
        let name = ":memory:"
        #expect {
            _ = try Store(path: name, clock: ManualClock(Date(iso: "2026-03-15T12:00:00Z")))
        } throws: { error in
            "\(error)".contains("in-memory database would lose everything")
                && "\(error)".contains("give the database file's path")
        }
        #expect(!FileManager.default.fileExists(atPath: name), "a file named \(name) in the working directory")
    }
}
