public import Domain
public import Foundation
public import PipelineKit
import Synchronization
public import Testing

/// The databases the shared suites run on: every test body that takes a `TestBackend` runs once on
/// each (River's driver test suite, in Swift Testing's parameterized form).
public enum TestBackend: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case sqlite
    case postgresql

    public var description: String { rawValue }

    /// Both backends, unless `PIPELINE_TEST_POSTGRES=off` turns PostgreSQL off: then SQLite alone, and the test
    /// whose arguments these are is counted among those whose PostgreSQL cases were skipped (Swift Testing reads
    /// a test's arguments once, as it plans the run). The run says how many when it ends (`PostgreSQLSkips`).
    public static var all: [TestBackend] {
        guard isPostgreSQLOff else { return allCases }
        PostgreSQLSkips.parameterizedTests.add(1, ordering: .relaxed)
        return [.sqlite]
    }

    /// Whether `PIPELINE_TEST_POSTGRES=off` turned the PostgreSQL tests off (said on stderr as it is read, so a
    /// run without them never passes for a run with them).
    public static let isPostgreSQLOff: Bool = {
        guard ProcessInfo.processInfo.environment["PIPELINE_TEST_POSTGRES"] == "off" else { return false }
        FileHandle.standardError.write(Data("note: PIPELINE_TEST_POSTGRES=off: PostgreSQL tests are skipped\n".utf8))
        PostgreSQLSkips.reportAtExit()
        return true
    }()

    /// The test server's URL from `PIPELINE_TEST_POSTGRES` (set by scripts/test.sh, which starts a
    /// throwaway cluster). Unset, it is an address that fails with a message saying so: a test whose
    /// server is missing fails, never skips.
    public static var postgresServerURL: String {
        let value = ProcessInfo.processInfo.environment["PIPELINE_TEST_POSTGRES"] ?? ""
        guard value.hasPrefix("postgres") else {
            return "postgresql:///PIPELINE_TEST_POSTGRES-is-not-set--run-scripts-test.sh?host=/nonexistent"
        }
        return value
    }

    /// A URL of the test server whose tables live in `schema` (created on first open).
    public static func postgresURL(schema: String) -> String {
        let base = postgresServerURL
        return base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + schema
    }
}

/// A fresh, empty database with a manual clock, for one test: an SQLite file in a new temporary
/// directory, or a new schema of the PostgreSQL test server.
public final class TestDatabase: Sendable {
    public let backend: TestBackend
    public let directory: TemporaryDirectory
    public let clock: ManualClock
    /// The PostgreSQL schema this database lives in (unused on SQLite).
    public let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()

    /// `now` defaults to 2026-03-15T12:00:00Z. `label` starts the temporary directory's name (an exit test's child,
    /// which traps before it can remove its directory, names one its parent removes).
    public init(
        _ backend: TestBackend = .sqlite, now: Date = Date(iso: "2026-03-15T12:00:00Z"), label: String = "pipeline-db"
    ) {
        self.backend = backend
        directory = TemporaryDirectory(label)
        clock = ManualClock(now)
    }

    /// The address to open: a file path on SQLite, a `postgresql://` URL on PostgreSQL. (Named
    /// `path` because `Store(path:)` and `Pipeline.open(path:)` take either.)
    public var path: String {
        switch backend {
        case .sqlite: directory.path("pipeline.sqlite")
        case .postgresql: TestBackend.postgresURL(schema: schema)
        }
    }

    /// Opens a pipeline on the database; each call opens its own connection.
    public func open() async throws -> Pipeline {
        try await Pipeline.open(path: path, clock: clock)
    }
}

extension UserID {
    /// A test's literal id; traps if invalid, because it is a programmer's value.
    public static func literal(_ text: String) -> UserID {
        guard let id = UserID(text) else { preconditionFailure("invalid user id \(text)") }
        return id
    }
}

extension Day {
    /// A test's literal day; traps if invalid.
    public static func literal(_ text: String) -> Day {
        guard let day = Day(text) else { preconditionFailure("invalid day \(text)") }
        return day
    }
}

/// A test or suite that needs the PostgreSQL test server: under `PIPELINE_TEST_POSTGRES=off` each of its tests (each
/// case of a parameterized one) is cancelled before it starts, and counted; otherwise it runs. A test whose server
/// is missing otherwise fails, never skips.
public struct PostgreSQLTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !TestBackend.isPostgreSQLOff else {
            PostgreSQLSkips.onlyPostgreSQL.add(1, ordering: .relaxed)
            try Test.cancel("PIPELINE_TEST_POSTGRES=off")
        }
        try await function()
    }
}

extension Trait where Self == PostgreSQLTrait {
    /// Needs the PostgreSQL test server (`PostgreSQLTrait`).
    public static var postgreSQL: Self { PostgreSQLTrait() }
}

/// What `PIPELINE_TEST_POSTGRES=off` left out of a run, said on stderr as the run ends.
public enum PostgreSQLSkips {
    /// Tests whose PostgreSQL cases were not run (`TestBackend.all`).
    static let parameterizedTests = Atomic<Int>(0)
    /// Tests (and test cases) that need PostgreSQL alone, cancelled (`PostgreSQLTrait`).
    static let onlyPostgreSQL = Atomic<Int>(0)

    static func reportAtExit() {
        atexit {
            let parameterized = PostgreSQLSkips.parameterizedTests.load(ordering: .relaxed)
            let only = PostgreSQLSkips.onlyPostgreSQL.load(ordering: .relaxed)
            FileHandle.standardError.write(
                Data(
                    ("note: PIPELINE_TEST_POSTGRES=off: skipped \(only) PostgreSQL-only test\(only == 1 ? "" : "s") "
                        + "and the PostgreSQL cases of \(parameterized) test\(parameterized == 1 ? "" : "s")\n").utf8))
        }
    }
}
