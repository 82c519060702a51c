import Storage
import Testing

/// A connection a server refuses is sorted by libpq's message: what will not pass by itself is
/// configuration (exit 78), what may pass is busy (exit 75). The messages are libpq 15's and the server's,
/// as they reach `StorageError.cannotConnect` (copied from real failures: a role, a database, a password
/// missing and wrong against the test server, a stopped server, a host name that does not resolve).
@Suite("A refused connection is configuration or busy, never both")
struct ConnectionRefusalTests {
    static let socket = #"connection to server on socket "/tmp/pg/.s.PGSQL.5432" failed: "#

    @Test(
        "role, database, password, pg_hba.conf, TLS and host-name refusals are configuration",
        arguments: [
            socket + #"FATAL:  role "nobody" does not exist"#,
            socket + #"FATAL:  database "nodb" does not exist"#,
            socket + "fe_sendauth: no password supplied",
            socket + #"FATAL:  password authentication failed for user "pipeline""#,
            socket + #"FATAL:  Peer authentication failed for user "pipeline""#,
            #"connection to server at "10.0.0.5", port 5432 failed: FATAL:  no pg_hba.conf entry for host "10.0.0.9", "#
                + #"user "pipeline", database "pipeline", no encryption"#,
            socket + #"FATAL:  role "reader" is not permitted to log in"#,
            socket + #"FATAL:  permission denied for database "pipeline""#,
            "server does not support SSL, but SSL was required",
            #"could not translate host name "db.internall" to address: Name or service not known"#,
            #"invalid sslmode value: "sometimes""#,
        ])
    func configuration(reason: String) {
        let error = StorageError.cannotConnect(location: "postgresql:///pipeline", reason: reason)
        #expect(error.isConfiguration)
        #expect(!error.isBusy)
        #expect(error.description.contains("will not pass by itself"))
        #expect(!error.description.contains("try again later"))
    }

    @Test(
        "a server down, starting, shutting down, full or out of reach is busy: try again later",
        arguments: [
            socket
                + "No such file or directory; Is the server running locally and accepting connections on that socket?",
            #"connection to server at "localhost" (::1), port 5432 failed: Connection refused"#,
            socket + "FATAL:  the database system is starting up",
            socket + "FATAL:  the database system is shutting down",
            socket + "FATAL:  sorry, too many clients already",
            socket + #"FATAL:  too many connections for role "pipeline""#,
            #"could not translate host name "db.internal" to address: Temporary failure in name resolution"#,
            #"connection to server at "db.internal" (10.0.0.5), port 5432 failed: timeout expired"#,
        ])
    func busy(reason: String) {
        let error = StorageError.cannotConnect(location: "postgresql:///pipeline", reason: reason)
        #expect(!error.isConfiguration)
        #expect(error.isBusy)
        #expect(error.description.contains("try again later"))
    }

    @Test("a path with no database, and a file that is no SQLite database, are configuration")
    func paths() {
        #expect(StorageError.noDatabase(path: "typo.sqlite").isConfiguration)
        #expect(StorageError.notAPipelineDatabase(path: "other.sqlite").isConfiguration)
        let notADatabase = StorageError.sqlite(code: 26, message: "file is not a database", sql: "PRAGMA journal_mode")
        #expect(notADatabase.isConfiguration)
        #expect(!notADatabase.description.contains("PRAGMA"))
        #expect(!StorageError.sqlite(code: 5, message: "database is locked", sql: nil).isConfiguration)
        #expect(
            StorageError.postgresql(sqlState: "28P01", message: "password authentication failed", sql: nil)
                .isConfiguration)
    }
}
