import Domain
public import Foundation
import Glibc
import PipelineCLI

/// Runs `pipeline` in this process with `arguments` (no program name), `stdin` as standard input and
/// exactly `environment` (nothing leaks in from the test process), capturing both streams.
public func runCLI(
    _ arguments: [String], stdin: String = "", environment: [String: String] = [:]
) async -> (status: Int32, stdout: String, stderr: String) {
    let io = CommandIO(stdin: InputSource(text: stdin), stdout: .memory(), stderr: .memory())
    let status = await runPipeline(arguments: arguments, environment: environment, io: io)
    return (status, io.stdout.text, io.stderr.text)
}

/// How a launch of the built `pipeline` executable ended.
public struct BinaryRun: Sendable {
    /// The exit status; meaningless when `uncaughtSignal` is set.
    public let status: Int32
    /// The signal that killed the process (SIGPIPE is 13), or `nil` if it exited.
    public let uncaughtSignal: Int32?
    public let stdout: String
    public let stderr: String
    /// The process was still running at the `timeLimit` given to `runBinary`, and was killed.
    public var timedOut = false
}

/// The built executable could not be found.
public struct PipelineBinaryMissing: Error, CustomStringConvertible {
    public let searched: [String]

    public var description: String {
        "The pipeline executable is not built (looked for: \(searched.joined(separator: ", "))). "
            + "Run `swift build --product pipeline` (`swift test` builds it too), or set PIPELINE_BINARY to its path."
    }
}

/// The `pipeline` executable of the current build: `PIPELINE_BINARY` when set, else the one next
/// to the running test bundle (`.build/<triple>/<config>/`), else `.build/debug` or
/// `.build/release` of the repository.
public func pipelineBinary() throws -> URL {
    var candidates: [URL] = []
    if let explicit = ProcessInfo.processInfo.environment["PIPELINE_BINARY"], !explicit.isEmpty {
        candidates.append(URL(fileURLWithPath: explicit))
    }
    // The test runner is an executable in the products folder on Linux, and sits inside
    // `<products>/X.xctest/Contents/MacOS/` on macOS.
    let runner = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
    var products = runner.deletingLastPathComponent()
    if let bundle = runner.pathComponents.lastIndex(where: { $0.hasSuffix(".xctest") }),
        bundle < runner.pathComponents.count - 1
    {
        products = URL(fileURLWithPath: NSString.path(withComponents: Array(runner.pathComponents[..<bundle])))
    }
    candidates.append(products.appendingPathComponent("pipeline"))
    for configuration in ["debug", "release"] {
        candidates.append(repositoryRoot.appendingPathComponent(".build/\(configuration)/pipeline"))
    }
    func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }
    guard let found = candidates.first(where: isExecutableFile) else {
        throw PipelineBinaryMissing(searched: candidates.map(\.path))
    }
    return found
}

/// Launches the built `pipeline` with `arguments`, `stdin` and exactly `environment`, and waits for
/// it to end. Output goes to temporary files, so a large output cannot block the child; pass
/// `standardOutput` to send stdout somewhere else (then `stdout` of the result is empty). With a
/// `timeLimit`, a process still running when it passes is killed with SIGKILL and the result says
/// `timedOut`, so a hung child fails the test instead of hanging it. `currentDirectory` is the
/// child's working directory (default: this process's). With `fileSizeLimit` (KiB), no file the
/// child writes may grow past it (`ulimit -f`, with SIGXFSZ ignored): a write beyond it fails as
/// on a full disk. With `readOnlyFolder`, the child sees that folder read-only: as root, in a mount
/// namespace of its own where the folder is bound read-only (as on a read-only file system, which root
/// cannot write either); otherwise with the folder's write permission taken away while it runs. With
/// `networkNamespace` (root only), the child runs in that named network namespace, as on another host
/// (`ip netns exec`, which also binds the files of `/etc/netns/<name>/` over those of `/etc`). With `program`,
/// the child is that executable instead of the built `pipeline` (a script of the repository's, say).
public func runBinary(
    _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
    standardOutput: FileHandle? = nil, timeLimit: Duration? = nil, currentDirectory: String? = nil,
    fileSizeLimit: Int? = nil, readOnlyFolder: String? = nil, networkNamespace: String? = nil, program: URL? = nil
) async throws -> BinaryRun {
    let executable = try program ?? pipelineBinary()
    let folder = TemporaryDirectory("pipeline-binary")
    let paths = (input: folder.path("stdin"), output: folder.path("stdout"), error: folder.path("stderr"))
    try Data(stdin.utf8).write(to: URL(fileURLWithPath: paths.input))
    for path in [paths.output, paths.error] {
        try Data().write(to: URL(fileURLWithPath: path))
    }
    let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: paths.input))
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: paths.output))
    let error = try FileHandle(forWritingTo: URL(fileURLWithPath: paths.error))
    defer {
        try? input.close()
        try? output.close()
        try? error.close()
    }

    let process = Process()
    if let fileSizeLimit {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
            ["-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit) && exec \"$0\" \"$@\"", executable.path] + arguments
    } else if let readOnlyFolder, getuid() == 0 {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments =
            [
                "--mount", "/bin/sh", "-c",
                "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && shift && exec \"$@\"", "sh",
                readOnlyFolder, executable.path,
            ] + arguments
    } else if let networkNamespace {
        // iproute2's path on Debian, with or without the merged /usr (the environment is the child's, not a PATH).
        process.executableURL = URL(fileURLWithPath: "/sbin/ip")
        process.arguments = ["netns", "exec", networkNamespace, executable.path] + arguments
    } else {
        process.executableURL = executable
        process.arguments = arguments
    }
    process.environment = environment
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    process.standardInput = input
    process.standardOutput = standardOutput ?? output
    process.standardError = error
    if let readOnlyFolder, getuid() != 0 {
        chmod(readOnlyFolder, 0o555)
    }
    defer { if let readOnlyFolder, getuid() != 0 { chmod(readOnlyFolder, 0o755) } }
    let watchdog = Locked<Task<Bool, Never>?>(nil)
    // Cancelled (a test past its time limit), the child is killed, which ends the wait.
    let started = Locked<Int32?>(nil)
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
                started.withLock { $0 = process.processIdentifier }
                if let timeLimit {
                    let child = process.processIdentifier
                    watchdog.withLock {
                        $0 = Task {
                            guard (try? await Task.sleep(for: timeLimit)) != nil else { return false }
                            kill(child, SIGKILL)
                            return true
                        }
                    }
                }
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    } onCancel: {
        if let child = started.withLock({ $0 }) { kill(child, SIGKILL) }
    }
    let timer = watchdog.withLock { $0 }
    timer?.cancel()
    let timedOut = await timer?.value ?? false

    let killed = process.terminationReason == .uncaughtSignal
    var run = BinaryRun(
        status: killed ? -1 : process.terminationStatus,
        uncaughtSignal: killed ? process.terminationStatus : nil,
        stdout: try String(contentsOfFile: paths.output, encoding: .utf8),
        stderr: try String(contentsOfFile: paths.error, encoding: .utf8))
    run.timedOut = timedOut
    return run
}

/// The built `pipeline` running with a pipe for standard input, so that a test can feed it in steps and act
/// between them (stop a server, hold a lock) while it reads.
public final class StreamingBinary: Sendable {
    private let process: Process
    private let input: FileHandle
    private let folder = TemporaryDirectory("pipeline-stream")
    private let ended: Task<Void, Never>

    public init(_ arguments: [String], environment: [String: String] = [:]) throws {
        // A write to a pipe whose reader has exited must fail, not end the test process.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = try pipelineBinary()
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardInput = pipe
        for (name, set) in [("stdout", { process.standardOutput = $0 }), ("stderr", { process.standardError = $0 })]
            as [(String, (FileHandle) -> Void)]
        {
            let path = folder.path(name)
            try Data().write(to: URL(fileURLWithPath: path))
            set(try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in continuation.finish() }
        try process.run()
        self.process = process
        input = pipe.fileHandleForWriting
        ended = Task { for await _ in stream {} }
    }

    /// Writes `text` to the process's standard input; a process that has exited is not written to.
    public func write(_ text: String) {
        guard process.isRunning else { return }
        try? input.write(contentsOf: Data(text.utf8))
    }

    /// Closes standard input and waits for the process to end.
    public func finish() async throws -> BinaryRun {
        try? input.close()
        await ended.value
        let killed = process.terminationReason == .uncaughtSignal
        return BinaryRun(
            status: killed ? -1 : process.terminationStatus, uncaughtSignal: killed ? process.terminationStatus : nil,
            stdout: try String(contentsOfFile: folder.path("stdout"), encoding: .utf8),
            stderr: try String(contentsOfFile: folder.path("stderr"), encoding: .utf8))
    }
}
