import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

@Suite("Migrations", .timeLimit(.minutes(10)))
struct MigrationTests {
    @Test(
        "a new database is created at the latest schema version (an SQLite file with mode 0600)",
        arguments: TestBackend.all)
    func freshDatabase(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        #expect(try await store.schemaVersion() == Store.latestSchemaVersion)
        #expect(try await store.integrityCheck() == "ok")
        // Health data: the file is readable by its owner only. (A PostgreSQL server keeps its own files.)
        if backend == .sqlite {
            let attributes = try FileManager.default.attributesOfItem(atPath: database.path)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o777 == 0o600)
        }
    }

    @Test(
        "a database left at every earlier version keeps its rows when migrated forward",
        arguments: TestBackend.all, 1..<Store.latestSchemaVersion)
    func upgradeFromEarlierVersion(backend: TestBackend, version: Int) async throws {
        let database = TestDatabase(backend)
        do {
            let old = try Store(path: database.path, clock: database.clock, schemaVersion: version)
            #expect(try await old.schemaVersion() == version)
            // Rows as that version's statements left them, in SQL every version reads (this version's statements
            // are written for the latest schema).
            try await old.executeForTesting(
                """
                INSERT INTO users (id, time_zone, created_at) VALUES ('ada', 'UTC', 0);
                INSERT INTO daily_logs (user_id, day, symptom_severity, hrv, hrv_source, updated_at)
                VALUES ('ada', '2026-03-01', 4, 42, 'health', 0), ('ada', '2026-12-31', NULL, 61.5, 'user', 0)
                """)
            if version >= 4 {
                try await old.executeForTesting(
                    "INSERT INTO outbox (user_id, kind, day, body, created_at) VALUES ('ada', 'reminder', '2026-03-02', 'x', 0)"
                )
            }
        }
        let store = try Store(path: database.path, clock: database.clock)
        #expect(try await store.schemaVersion() == Store.latestSchemaVersion)
        let log = try #require(try await store.dailyLog(user: .literal("ada"), day: .literal("2026-03-01")))
        #expect(log.symptomSeverity == 4)
        #expect(log.hrv == Sourced(42, .health))
        let days = try await store.dailyLogs(user: .literal("ada"))
        #expect(days.map(\.day) == [.literal("2026-03-01"), .literal("2026-12-31")])
        #expect(days.last?.hrv == Sourced(61.5, .user))
        if version >= 4 {
            #expect(try await store.outboxMessages().map(\.day) == [.literal("2026-03-02")])
        }
        // The upgraded database works for the newest tables too.
        try await store.enqueue(
            WatchSubmission(user: .literal("ada"), kind: "symptomLog", payload: "{}", enqueuedAt: database.clock.now))
        #expect(try await store.summary().watchItemsByKind["symptomLog"] == 1)
    }

    /// "Unchanged" is the SQLite file byte for byte; on PostgreSQL, the schema's tables, columns,
    /// indexes and every row, `schema_migrations` included.
    @Test(
        "a database from a newer version is refused with a clear error and left unchanged",
        arguments: TestBackend.all)
    func newerDatabaseIsRefused(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        do {
            let store = try Store(path: database.path, clock: database.clock)
            try await store.write(HealthMetrics(user: .literal("ada"), day: .literal("2026-03-01"), stepCount: 100))
            // What a future version would have recorded.
            try await store.executeForTesting(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from_the_future', 0)")
        }
        let before = try Store.contentsForTesting(at: database.path)
        // The comparison sees the rows that matter (on SQLite, it is the whole file).
        if backend == .postgresql { #expect(before.contains { $0.contains("from_the_future") }) }
        #expect {
            _ = try Store(path: database.path, clock: database.clock)
        } throws: { error in
            guard case StorageError.newerSchema(_, let found, let supported) = error else { return false }
            return found == 999 && supported == Store.latestSchemaVersion
                && "\(error)".contains("upgrade pipeline")
        }
        #expect(try Store.contentsForTesting(at: database.path) == before)
    }

    /// On SQLite, a file the sqlite3 shell made; on PostgreSQL, a schema holding another
    /// application's table.
    @Test("a database that pipeline did not create is refused and left unchanged", arguments: TestBackend.all)
    func foreignDatabaseIsRefused(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let path = database.path
        let notes = "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x');"
        switch backend {
        case .sqlite:
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [path, notes]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "sqlite3 must be installed to build the foreign database")
        case .postgresql:
            try Store.executeForTesting(at: path, "CREATE SCHEMA \(database.schema); " + notes)
        }
        let before = try Store.contentsForTesting(at: path)
        if backend == .postgresql { #expect(before.contains("  (1,x)")) }
        #expect {
            _ = try Store(path: path)
        } throws: { error in
            if case StorageError.notAPipelineDatabase = error { true } else { false }
        }
        #expect(try Store.contentsForTesting(at: path) == before)
    }

    @Test("a database whose migration history differs from this build's is refused", arguments: TestBackend.all)
    func mismatchedHistoryIsRefused(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        do {
            let store = try Store(path: database.path, clock: database.clock, schemaVersion: 1)
            try await store.executeForTesting("UPDATE schema_migrations SET name = 'something_else' WHERE version = 1")
        }
        #expect {
            _ = try Store(path: database.path, clock: database.clock)
        } throws: { error in
            if case StorageError.migrationMismatch(1, "something_else", _) = error { true } else { false }
        }
    }

    @Test("stores opening one new database at the same time apply each migration once", arguments: TestBackend.all)
    func concurrentFirstOpen(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let path = database.path
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try await Store(path: path).schemaVersion() }
            }
            for try await version in group {
                #expect(version == Store.latestSchemaVersion)
            }
        }
        let store = try Store(path: path)
        #expect(try await store.migrationCountForTesting() == Store.latestSchemaVersion)
    }

    @Test(
        "every migration file in Schema/<backend>/ is embedded, in order, and none was edited after shipping",
        arguments: StorageBackend.allCases)
    func migrationsAreEmbeddedAndUnchanged(backend: StorageBackend) throws {
        let (folderName, migrations) =
            switch backend {
            case .sqlite: ("SQLite", Migrator(.sqlite).migrations)
            case .postgresql: ("PostgreSQL", Migrator(.postgresql).migrations)
            }
        let folder = repositoryRoot.appendingPathComponent("Schema/\(folderName)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }
            .sorted()
        #expect(
            files.count == migrations.count, "each Schema/\(folderName)/*.sql needs its line in Migrations.swift")
        for (file, migration) in zip(files, migrations) {
            #expect(file == String(format: "%04d_%@.sql", migration.version, migration.name))
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(text == migration.sql)
        }
        // Checksums of shipped migrations: a shipped file must never change. Add a line when a
        // migration ships; never edit one.
        let shipped: [Int: UInt64] =
            switch backend {
            case .sqlite:
                [
                    1: 3_401_617_620_565_655_190,
                    2: 5_546_017_050_548_263_699,
                    3: 5_706_743_190_856_570_428,
                    4: 1_030_958_927_849_199_279,
                    5: 10_844_940_879_613_085_066,
                    6: 11_341_997_414_416_602_924,
                    7: 2_655_417_279_238_476_543,
                    8: 14_977_803_158_913_108_794,
                    9: 8_857_529_631_685_486_460,
                    10: 10_168_909_637_616_787_023,
                    11: 1_094_179_016_695_649_139,
                    12: 7_773_108_231_853_879_056,
                    13: 10_544_974_449_322_365_552,
                    14: 11_662_172_691_417_247_487,
                    15: 13_524_880_057_918_005_174,
                    16: 10_917_162_621_606_551_192,
                ]
            case .postgresql:
                [
                    1: 8_741_412_160_188_783_404,
                    2: 8_410_075_885_913_232_079,
                    3: 9_545_764_472_363_418_410,
                    4: 12_005_551_719_877_626_749,
                    5: 879_446_856_681_425_402,
                    6: 17_413_785_634_787_939_127,
                    7: 3_927_059_875_305_595_672,
                    8: 5_150_622_570_182_306_944,
                    9: 1_600_079_241_703_878_833,
                    10: 6_308_267_504_806_596_548,
                    11: 12_411_639_054_754_070_071,
                    12: 17_662_352_067_966_563_852,
                    13: 17_801_447_163_152_486_742,
                    14: 7_940_860_493_566_143_166,
                    15: 2_996_783_056_659_461_936,
                    16: 10_266_795_872_862_185_595,
                ]
            }
        for migration in migrations {
            let checksum = FNV1a.hash(migration.sql)
            if let pinned = shipped[migration.version] {
                #expect(pinned == checksum, "migration \(migration.version) changed after it shipped (\(checksum))")
            }
        }
    }

    @Test("both backends ship the same migrations, numbered and named alike, so a schema version means one thing")
    func backendsShipTheSameMigrations() {
        let sqlite = Migrator(.sqlite).migrations.map { "\($0.version) \($0.name)" }
        let postgresql = Migrator(.postgresql).migrations.map { "\($0.version) \($0.name)" }
        #expect(sqlite == postgresql)
        #expect(Store.latestSchemaVersion == Migrator(.postgresql).latestVersion)
    }
}
