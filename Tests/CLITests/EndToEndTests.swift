import Foundation
import TestSupport
import Testing

/// Launches the built executable: what `main.swift` adds to `runPipeline` (real streams, the exit
/// status, SIGPIPE) is visible only from outside the process.
@Suite("The pipeline executable", .timeLimit(.minutes(10)))
struct EndToEndTests {
    @Test("pipeline --help prints the command list to stdout and exits 0")
    func help() async throws {
        let run = try await runBinary(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Usage: pipeline <command>"))
        #expect(run.stdout.contains("  help "))
        #expect(run.stderr.isEmpty)
    }

    @Test("a usage error exits 64 with the message on stderr only")
    func usageError() async throws {
        let run = try await runBinary(["--frobnicate"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: unknown option '--frobnicate'.\nUsage: pipeline <command>"))
    }

    @Test("pipeline --version prints the version and exits 0")
    func version() async throws {
        let run = try await runBinary(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("pipeline "))
    }

    @Test("a reader that closed the pipe before any output does not kill pipeline with SIGPIPE")
    func closedPipe() async throws {
        let pipe = Pipe()
        // Closing the read end first makes the child's first write fail with EPIPE, every time.
        try pipe.fileHandleForReading.close()
        let run = try await runBinary(["--help"], standardOutput: pipe.fileHandleForWriting)
        try pipe.fileHandleForWriting.close()
        #expect(run.uncaughtSignal == nil)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
    }
}
