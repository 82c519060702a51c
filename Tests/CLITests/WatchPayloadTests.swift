import Domain
import Foundation
import PipelineKit
import Storage
import TestSupport
import Testing

@Suite("Watch payloads are kept as sent")
struct WatchPayloadTests {
    @Test(
        "an unknown kind's payload is stored byte for byte: big integers, exponents, escapes and spacing",
        arguments: TestBackend.all)
    func exactPayload(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let payloads = [
            #"{"sampleId":9007199254740993}"#,
            #"{ "reading" : 1.10, "scale":1E2, "tiny":1e-7, "name":"caf\u00e9 \/ \"x\"", "list":[ 1 ,2 ] }"#,
            #"{"nested":{"id":123456789012345678901234567890,"flags":[true,false,null]}}"#,
        ]
        let input = payloads.map { #"{"type":"watch","user":"alice","kind":"heartbeatSeries","payload":"# + $0 + "}" }
        let run = await runCLI(
            ["ingest", "-", "--db", database.path, "--now", "2026-03-15T12:00:00Z"],
            stdin: input.joined(separator: "\n"))
        #expect(run.status == 0, "\(run.stderr)")
        let pipeline = try await database.open()
        let stored = try await pipeline.store.allWatchItems().sorted { $0.id < $1.id }.map(\.payload)
        #expect(stored == payloads)
    }

    @Test("a known kind's payload is kept as sent and still applies", arguments: TestBackend.all)
    func knownKindPayload(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let payload = #"{ "day":"2026-03-01", "symptomSeverity":5.0 }"#
        let line = #"{"type":"watch","user":"alice","kind":"symptomLog","payload":"# + payload + "}"
        let run = await runCLI(["ingest", "-", "--db", database.path, "--now", "2026-03-15T12:00:00Z"], stdin: line)
        #expect(run.status == 0, "\(run.stderr)")
        let export = await runCLI(["export", "--user", "alice", "--db", database.path])
        #expect(export.stdout.contains(#""symptomSeverity":5"#))
    }
}
