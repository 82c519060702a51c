import Domain
import Foundation
import Glibc
import PipelineKit
import Scheduling
import TestSupport
import Testing

@testable import Storage

/// The README's set-up across hosts, for real: a PostgreSQL server and two workers, each in a network namespace
/// of its own on a private network (scripts/lib/postgres-hosts.sh). The workers reach the server over TCP by its
/// name, with TLS that verifies the server's certificate and name against a throwaway CA (`sslmode=verify-full`,
/// `sslrootcert`), and a password the server checks with scram-sha-256, which they read from a password file or
/// PGPASSWORD and never print. Network namespaces need root, as CI runs the suite: elsewhere the test fails and
/// says so; `PIPELINE_TEST_POSTGRES=off` skips it with every PostgreSQL test.
@Suite("PostgreSQL across hosts, over TLS with scram-sha-256", .postgreSQL, .serialized, .timeLimit(.minutes(10)))
struct PostgreSQLAcrossHostsTests {
    static let now = "2026-03-15T12:00:00Z"
    /// The longest any process here may take, as in `PostgreSQLWorkerTests`: a bound on a hang, not a speed.
    static let processLimit: Duration = .seconds(300)

    @Test("two workers on two hosts retrain a cohort one of them ingested, each user once, over verified TLS")
    func twoWorkersOverTLS() async throws {
        let hosts = try await Hosts.start()
        do {
            try await Self.check(hosts)
        } catch {
            await hosts.stop()
            throw error
        }
        await hosts.stop()
    }

    static func check(_ hosts: Hosts) async throws {
        let password = try hosts.password()
        var outputs: [BinaryRun] = []
        // The first worker reads the password from the password file, the second from PGPASSWORD.
        let byFile = ["PGPASSFILE": hosts.passwordFile]
        let byVariable = ["PGPASSWORD": password]

        // The first worker creates the tables and loads a generated cohort (generated anywhere: it needs no
        // server), from a file of mode 0600 beside the password file, as a file of health data should be.
        let (userCount, days, seed) = (100, 30, 23)
        let generator = CohortGenerator(users: userCount, days: days, seed: UInt64(seed), now: Date(iso: now))
        let users = generator.truths().map(\.id.rawValue)
        let initialized = try await runBinary(
            ["init", "--db", hosts.url], environment: byFile, timeLimit: processLimit,
            networkNamespace: hosts.workers[0])
        outputs.append(initialized)
        try #require(initialized.status == 0 && !initialized.timedOut, "\(initialized.stderr)")
        #expect(
            initialized.stdout.hasPrefix("postgresql://pipeline@db.pipeline.test:5432/pipeline?sslmode=verify-full"))
        let cohort = URL(fileURLWithPath: hosts.passwordFile).deletingLastPathComponent()
            .appendingPathComponent("cohort.jsonl").path
        try #require(
            FileManager.default.createFile(atPath: cohort, contents: nil, attributes: [.posixPermissions: 0o600]))
        let cohortFile = try FileHandle(forWritingTo: URL(fileURLWithPath: cohort))
        let generated = try await runBinary(
            ["generate", "--users", "\(userCount)", "--days", "\(days)", "--seed", "\(seed)", "--now", now],
            standardOutput: cohortFile, timeLimit: processLimit)
        try cohortFile.close()
        try #require(generated.status == 0, "\(generated.stderr)")
        let ingested = try await runBinary(
            ["ingest", "--db", hosts.url, "--now", now, cohort], environment: byFile, timeLimit: processLimit,
            networkNamespace: hosts.workers[0])
        outputs.append(ingested)
        try #require(ingested.status == 0 && !ingested.timedOut, "\(ingested.stderr)")
        #expect(ingested.stderr.isEmpty)

        // Both workers retrain the cohort at the same time, each from its own host.
        let retrains = try await withThrowingTaskGroup(of: BinaryRun.self) { group in
            for (worker, password) in zip(hosts.workers, [byFile, byVariable]) {
                group.addTask {
                    try await runBinary(
                        ["retrain", "--db", hosts.url, "--now", now, "--jobs", "1"], environment: password,
                        timeLimit: processLimit, networkNamespace: worker)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        outputs += retrains
        for retrain in retrains {
            #expect(retrain.status == 0 && !retrain.timedOut, "\(retrain.stderr)")
            #expect(retrain.stderr.isEmpty && retrain.stdout.isEmpty)
        }

        // Each user's retrain ran exactly once, successfully, and saved the user's one model. (Read by the
        // superuser on the server's own socket: the network lets only the role in, and only over TLS.)
        let store = try Store(path: hosts.adminURL)
        let runs = try await store.taskRuns(identifier: PipelineTasks.mlRetrain.rawValue, includeUnfinished: true)
        #expect(runs.allSatisfy { $0.outcome == .success }, "every run finished, and succeeded")
        #expect(runs.count == users.count, "no user's retrain ran twice")
        #expect(Set(runs.map(\.scope)) == Set(users), "every user's retrain ran")
        for user in users {
            #expect(try await store.modelHistory(scope: user).count == 1, "\(user) has one model")
        }
        // The role's password is kept as a SCRAM verifier (password_encryption), never as text or MD5.
        try await store.executeForTesting(
            """
            DO $$ BEGIN
                IF NOT (SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = 'pipeline') THEN
                    RAISE EXCEPTION 'the role''s password is not kept as a SCRAM verifier';
                END IF;
            END $$
            """)

        // What is refused, from a worker's host, each exit 78 naming what to change: by the server, a connection
        // without TLS and a wrong password; by the worker, a server its CA did not sign and one reached by another
        // name than the certificate's.
        let refusals: [(url: String, environment: [String: String], says: String)] = [
            (
                hosts.url.replacingOccurrences(of: "sslmode=verify-full", with: "sslmode=disable"), byFile,
                "no encryption"
            ),
            (
                hosts.url.replacingOccurrences(of: hosts.rootCertificate, with: hosts.otherRootCertificate), byFile,
                "certificate verify failed"
            ),
            (
                hosts.url.replacingOccurrences(of: "@db.pipeline.test:", with: "@\(hosts.serverAddress):"), byVariable,
                "does not match host name"
            ),
            (hosts.url, ["PGPASSWORD": "not-" + password], "password authentication failed"),
        ]
        for refusal in refusals {
            let run = try await runBinary(
                ["status", "--db", refusal.url], environment: refusal.environment, timeLimit: processLimit,
                networkNamespace: hosts.workers[1])
            outputs.append(run)
            #expect(run.status == 78 && !run.timedOut, "\(refusal.url): \(run.stderr)")
            #expect(run.stderr.contains(refusal.says), "\(run.stderr)")
        }

        // The server's side: every connection it let in from the network came with TLS and was authenticated with
        // scram-sha-256, and both workers' hosts connected.
        let log = try String(contentsOfFile: hosts.serverLog, encoding: .utf8)
        let connections = NetworkConnections(log: log)
        #expect(connections.authorized.count >= 4, "init, ingest and both retrains connected")
        for connection in connections.authorized {
            #expect(connection.line.contains("SSL enabled (protocol=TLSv1."), "\(connection.line)")
            #expect(connection.scram, "\(connection.line)")
        }
        #expect(Set(connections.authorized.map(\.host)) == Set(hosts.workerAddresses))
        #expect(!log.contains(password), "the server's log shows no password")

        // The password was never printed.
        for output in outputs + [hosts.started] {
            #expect(!output.stdout.contains(password) && !output.stderr.contains(password))
        }
    }

    /// The connections from the network in the server's log (`log_connections`, `log_line_prefix = '%m [%p] %r '`):
    /// a server process logs how it authenticated its connection, then that it let it in, with its TLS.
    struct NetworkConnections {
        /// Sessions the server let in: its process, the client's address, whether the line before it from the same
        /// process said scram-sha-256 authenticated it, and the log line.
        var authorized: [(process: String, host: String, scram: Bool, line: Substring)] = []

        init(log: String) {
            let pattern = /\[(\d+)\] (\d+\.\d+\.\d+\.\d+)\(\d+\) LOG:  connection (authenticated|authorized): .*/
            var authenticatedByScram: [String: Bool] = [:]
            for line in log.split(separator: "\n") {
                guard let match = line.firstMatch(of: pattern) else { continue }
                let (process, host) = (String(match.1), String(match.2))
                if match.3 == "authenticated" {
                    authenticatedByScram[process] = line.contains("method=scram-sha-256")
                } else {
                    let scram = authenticatedByScram.removeValue(forKey: process) ?? false
                    authorized.append((process, host, scram, line))
                }
            }
        }
    }

    /// The hosts of scripts/lib/postgres-hosts.sh, as its `start` printed them.
    struct Hosts: Sendable {
        let folder: TemporaryDirectory
        /// What `start` printed (no password).
        let started: BinaryRun
        let workers: [String]
        let workerAddresses: [String]
        let serverAddress: String
        let url: String
        let passwordFile: String
        let rootCertificate: String
        let otherRootCertificate: String
        let adminURL: String
        let serverLog: String

        static let script = repositoryRoot.appendingPathComponent("scripts/lib/postgres-hosts.sh").path

        /// Sets the hosts up; a set-up that fails (not root, no iproute2, a server that does not start) fails the
        /// test with the script's message, having stopped what it started.
        static func start() async throws -> Hosts {
            let folder = TemporaryDirectory("pipeline-hosts")
            let run = try await runScript(["start", folder.url.path])
            try #require(run.status == 0 && !run.timedOut, "the hosts could not be set up: \(run.stderr)")
            var values: [String: String] = [:]
            for line in run.stdout.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                values[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            func value(_ key: String) throws -> String {
                try #require(values[key], "postgres-hosts.sh start printed no \(key): \(run.stdout)")
            }
            return Hosts(
                folder: folder, started: run,
                workers: try value("WORKER_NAMESPACES").split(separator: " ").map(String.init),
                workerAddresses: try value("WORKER_ADDRESSES").split(separator: " ").map(String.init),
                serverAddress: try value("SERVER_ADDRESS"), url: try value("URL"), passwordFile: try value("PASSFILE"),
                rootCertificate: try value("ROOT_CERT"), otherRootCertificate: try value("OTHER_ROOT_CERT"),
                adminURL: try value("ADMIN_URL"), serverLog: try value("SERVER_LOG"))
        }

        /// Stops the server and removes the namespaces and the folder, even when the test was cancelled.
        func stop() async {
            let folder = folder.url.path
            let stopped = await Task.detached { try? await Hosts.runScript(["stop", folder]) }.value
            #expect(stopped?.status == 0, "the hosts were not all taken down: \(stopped?.stderr ?? "")")
        }

        /// The role's password, from the password file (`host:port:database:role:password`).
        func password() throws -> String {
            let line = try String(contentsOfFile: passwordFile, encoding: .utf8)
            let fields = line.trimmingCharacters(in: .newlines).split(separator: ":", maxSplits: 4)
            return try #require(fields.count == 5 ? String(fields[4]) : nil, "the password file has one line")
        }

        private static func runScript(_ arguments: [String]) async throws -> BinaryRun {
            var environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
            environment["PIPELINE_POSTGRES_BIN"] = ProcessInfo.processInfo.environment["PIPELINE_POSTGRES_BIN"]
            return try await runBinary(
                [script] + arguments, environment: environment, timeLimit: processLimit,
                program: URL(fileURLWithPath: "/bin/bash"))
        }
    }
}
