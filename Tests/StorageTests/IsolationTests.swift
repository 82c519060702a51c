import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Storage is safe from data races because the `Store` actor owns its connection (DESIGN §8, bug 3).
/// The compiler proves that only while nothing in Storage opts out of its checks: each opt-out is
/// listed here with the reason it is safe, and any other fails this suite.
@Suite("Storage isolation")
struct IsolationTests {
    /// The opt-outs Storage may declare, by file and the line that declares it, each with its proof.
    /// Empty: the connections are non-`Sendable` classes the actor owns, and everything that crosses
    /// its boundary is a `Sendable` value.
    static let exemptions: [(file: String, declaration: String, proof: String)] = []

    static let optOuts = ["nonisolated(unsafe)", "@unchecked Sendable"]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/Storage").standardized

    /// Every line of code (comments left out) in Storage's Swift files, by file relative to it.
    static func codeLines() throws -> [(file: String, line: String)] {
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        try #require(files.contains("Store.swift"), "Storage's sources were not found at \(sources.path)")
        return try files.flatMap { file in
            try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in
                    let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
                    return (file, code.trimmingCharacters(in: .whitespaces))
                }
        }
    }

    @Test("Storage declares no nonisolated(unsafe) or @unchecked Sendable beyond its listed, proven exemptions")
    func noUnlistedOptOuts() throws {
        let lines = try Self.codeLines()
        let found = lines.filter { entry in Self.optOuts.contains { entry.line.contains($0) } }
        for entry in found {
            let exemption = Self.exemptions.first { $0.file == entry.file && entry.line.contains($0.declaration) }
            #expect(
                exemption != nil,
                """
                \(entry.file): `\(entry.line)` opts out of the compiler's isolation checking: let the Store actor \
                own it, or list it in IsolationTests.exemptions with its proof
                """)
        }
        for exemption in Self.exemptions {
            #expect(!exemption.proof.isEmpty, "\(exemption.file): an exemption needs its proof")
            #expect(
                found.contains { $0.file == exemption.file && $0.line.contains(exemption.declaration) },
                "\(exemption.file): `\(exemption.declaration)` is listed but not declared; remove it from the list")
        }
    }

    @Test("the check reads Storage's sources: an opt-out in them would be found")
    func checkSeesTheSources() throws {
        let lines = try Self.codeLines()
        #expect(lines.contains { $0.file == "Store.swift" && $0.line.hasPrefix("public actor Store") })
        #expect(lines.contains { $0.file == "SQLite/Connection.swift" && $0.line.hasPrefix("final class Connection") })
    }

    /// The driver smuggled out of its actor, as bug 3's code did with its context: deliberately
    /// unsafe, to show that the first statement it runs from here traps.
    struct Smuggled: @unchecked Sendable {
        let driver: any StorageDriver
    }

    /// Opens a store on `backend`, takes its driver out of the actor, and runs a read from outside. Run in a child
    /// process that traps, whose directory the parent removes (`childDirectories`).
    static func readFromOutside(_ backend: TestBackend) async throws {
        let database = TestDatabase(backend, label: childLabel(parent: getppid()))
        let store = try Store(path: database.path, clock: database.clock)
        let smuggled = await store.smuggleDriverForTesting()
        _ = try smuggled.driver.integer(.userCount)
    }

    @Test("a statement run from outside the Store actor traps at once, on every backend")
    func statementOutsideTheActorTraps() async throws {
        // Inside the actor, the same read succeeds.
        let database = TestDatabase(.sqlite)
        _ = try await Store(path: database.path, clock: database.clock).summary()
        await #expect(processExitsWith: .failure) {
            try await IsolationTests.readFromOutside(.sqlite)
        }
        if !TestBackend.isPostgreSQLOff {
            await #expect(processExitsWith: .failure) {
                try await IsolationTests.readFromOutside(.postgresql)
            }
        }
        // The children trapped before they could remove their databases' directories.
        let prefix = Self.childLabel(parent: getpid()) + "-"
        let temporary = FileManager.default.temporaryDirectory
        for name in try FileManager.default.contentsOfDirectory(atPath: temporary.path) where name.hasPrefix(prefix) {
            try FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// The start of the directory names of the exit tests' children of test process `parent`.
    static func childLabel(parent: pid_t) -> String { "pipeline-db-trapped-\(parent)" }
}

extension Store {
    fileprivate func smuggleDriverForTesting() -> IsolationTests.Smuggled {
        IsolationTests.Smuggled(driver: driver)
    }
}
