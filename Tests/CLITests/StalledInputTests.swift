import Domain
import Foundation
import PipelineKit
import TestSupport
import Testing

/// `pipeline ingest -` fed by a pipe that stalls: the ingestion holds no database lock while it
/// waits, so other processes go on, and what it has read is already stored.
@Suite("Ingestion from a stalled pipe", .timeLimit(.minutes(10)))
struct StalledInputTests {
    static let now = "2026-03-15T12:00:00Z"

    static func entry(_ user: String, day: Int) -> String {
        #"{"type":"entry","user":"\#(user)","day":"2026-03-\#(String(format: "%02d", day))","mood":3}"# + "\n"
    }

    static func ingest(_ database: TestDatabase, strict: Bool = false) throws -> ChildProcess {
        try ChildProcess.start(
            ["ingest", "--db", database.path, "--now", now, "-"] + (strict ? ["--strict"] : []),
            environment: ["PIPELINE_LOG": "info"], feedsInput: true)
    }

    @Test("a launch completes normally while an ingestion waits on its pipe; the lines sent before are stored")
    func launchDuringStall() async throws {
        let database = TestDatabase(now: Date(iso: Self.now))
        let pipeline = try await database.open()
        try await pipeline.ingest(.user(UserUpdate(id: .literal("ada"))))

        let child = try Self.ingest(database)
        try child.send((1...3).map { Self.entry("ada", day: $0) }.joined())
        #expect(await child.waitForOutput(containing: "3 records read, 3 stored"), "\(child.errorOutput)")
        #expect(try await pipeline.dailyLogs(user: .literal("ada")).count == 3)

        // The ingestion now waits for more input. A launch writes (it starts the chains and runs
        // what is due) and must neither wait for the lock nor give up with 75.
        let launch = try await runBinary(["run", "--db", database.path, "--now", Self.now])
        #expect(launch.status == 0 && !launch.timedOut, "\(launch.stderr)")
        #expect(try await pipeline.pendingTasks(user: .literal("ada")).count == PipelineTasks.identifiers.count)

        try child.send(Self.entry("ada", day: 4))
        child.closeInput()
        #expect(await child.waitForExit() == .exit(0), "\(child.errorOutput)")
        #expect(try await pipeline.dailyLogs(user: .literal("ada")).count == 4)
    }

    @Test("four ingestions started at once, their inputs arriving one after another, all succeed")
    func fourAtOnce() async throws {
        let database = TestDatabase(now: Date(iso: Self.now))
        let pipeline = try await database.open()
        let children = try (0..<4).map { _ in try Self.ingest(database) }
        for (index, child) in children.enumerated() {
            try child.send((1...5).map { Self.entry("user-\(index)", day: $0) }.joined())
            #expect(await child.waitForOutput(containing: "5 stored"), "\(child.errorOutput)")
        }
        for child in children { child.closeInput() }
        for child in children {
            #expect(await child.waitForExit() == .exit(0), "\(child.errorOutput)")
        }
        for index in 0..<4 {
            #expect(try await pipeline.dailyLogs(user: .literal("user-\(index)")).count == 5)
        }
    }

    @Test("--strict from a pipe checks the whole input first: one bad last line stores nothing, and says where")
    func strictFromPipe() async throws {
        let database = TestDatabase(now: Date(iso: Self.now))
        let pipeline = try await database.open()
        let child = try Self.ingest(database, strict: true)
        try child.send((1...3).map { Self.entry("ada", day: $0) }.joined())
        try child.send(#"{"type":"entry","user":"ada","day":"2026-03-04","mood":9}"# + "\n")
        child.closeInput()
        #expect(await child.waitForExit() == .exit(65))
        #expect(child.errorOutput.contains("line 4: mood:"), "\(child.errorOutput)")
        #expect(try await pipeline.user(.literal("ada")) == nil)

        let good = try Self.ingest(database, strict: true)
        try good.send((1...3).map { Self.entry("ada", day: $0) }.joined())
        good.closeInput()
        #expect(await good.waitForExit() == .exit(0), "\(good.errorOutput)")
        #expect(try await pipeline.dailyLogs(user: .literal("ada")).count == 3)
    }
}
