import Glibc

/// The three standard streams of one run. Tests pass memory streams; `pipeline` passes the
/// process's own with `standard()`.
public struct CommandIO: Sendable {
    public let stdin: InputSource
    /// Results: what a script or a pipe consumes.
    public let stdout: OutputWriter
    /// Diagnostics, errors and progress.
    public let stderr: OutputWriter

    public init(stdin: InputSource, stdout: OutputWriter, stderr: OutputWriter) {
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Whether standard error is a terminal: a progress bar is drawn only then (cron mail stays clean).
    public var isTerminal: Bool { stderr.isTerminal }

    /// The process's standard streams: stdout buffered, stderr written at once.
    ///
    /// Ignores SIGPIPE for the whole process, so that a closed pipe surfaces as `EPIPE` from
    /// `write(2)`, which `OutputWriter` handles, instead of killing the process mid-run.
    public static func standard() -> CommandIO {
        signal(SIGPIPE, SIG_IGN)
        return CommandIO(
            stdin: InputSource(fileDescriptor: STDIN_FILENO),
            stdout: OutputWriter(fileDescriptor: STDOUT_FILENO, buffered: true),
            stderr: OutputWriter(fileDescriptor: STDERR_FILENO, buffered: false))
    }
}
