import Domain
import Glibc

/// Standard output or standard error of a run: buffered, safe to share between tasks, and quiet
/// when the reader goes away.
///
/// A buffered writer collects text and issues one `write(2)` per 64 KiB, so a command printing
/// hundreds of thousands of lines makes a few dozen system calls; `runPipeline` flushes at the end.
/// When the reader closes the pipe (`pipeline export | head`), `write(2)` fails with `EPIPE`
/// (SIGPIPE is ignored, see `CommandIO.standard()`): the writer drops that and all later output
/// silently and reports `isClosed`, so a long command can stop early. Any other write failure
/// (a full disk) is kept in `failure` and turned into an error status, because output that was
/// asked for and lost must not look like success. https://man7.org/linux/man-pages/man7/pipe.7.html
public final class OutputWriter: Sendable {
    private enum Destination {
        case descriptor(Int32)
        case memory
    }

    private struct State {
        var buffer: [UInt8] = []
        var isClosed = false
        var failure: Int32?
    }

    static let bufferSize = 64 * 1024

    private let destination: Destination
    /// The buffer is written out once it holds this many bytes.
    private let flushThreshold: Int
    private let state: Locked<State>

    /// Whether the destination is a terminal: progress bars and colours only then.
    public let isTerminal: Bool

    /// Writes to `fileDescriptor`, which the writer does not close. Unbuffered output is written at
    /// every call (standard error, where a progress bar must show at once).
    public init(fileDescriptor: Int32, buffered: Bool) {
        destination = .descriptor(fileDescriptor)
        flushThreshold = buffered ? Self.bufferSize : 1
        isTerminal = isatty(fileDescriptor) == 1
        state = Locked(State())
    }

    private init(memoryWithTerminal isTerminal: Bool) {
        destination = .memory
        flushThreshold = .max
        self.isTerminal = isTerminal
        state = Locked(State())
    }

    /// A writer that keeps everything in memory, readable with `text`: for running commands in tests.
    public static func memory(isTerminal: Bool = false) -> OutputWriter {
        OutputWriter(memoryWithTerminal: isTerminal)
    }

    /// Everything written to a memory writer (empty for a file-descriptor writer once flushed).
    public var text: String {
        state.withLock { String(decoding: $0.buffer, as: UTF8.self) }
    }

    /// Appends `text`; it reaches the destination when the buffer fills or at `flush()`.
    func write(_ text: String) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.buffer.append(contentsOf: text.utf8)
            if state.buffer.count >= flushThreshold {
                drain(&state)
            }
        }
    }

    /// Appends `text` and a newline.
    func writeLine(_ text: String) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.buffer.append(contentsOf: text.utf8)
            state.buffer.append(UInt8(ascii: "\n"))
            if state.buffer.count >= flushThreshold {
                drain(&state)
            }
        }
    }

    /// Writes out everything buffered. Blocks until the destination took it or failed.
    func flush() {
        state.withLock { drain(&$0) }
    }

    /// Whether the reader went away or a write failed; later output is discarded.
    var isClosed: Bool {
        state.withLock { $0.isClosed }
    }

    /// Why writing failed, other than the reader closing a pipe; `nil` if nothing failed.
    var failure: String? {
        state.withLock { state in state.failure.map { String(cString: strerror($0)) } }
    }

    private func drain(_ state: inout State) {
        guard case .descriptor(let descriptor) = destination, !state.buffer.isEmpty else { return }
        let error = state.buffer.withUnsafeBytes { Self.writeFully(descriptor, $0) }
        state.buffer.removeAll(keepingCapacity: true)
        guard let error else { return }
        state.isClosed = true
        if error != EPIPE {
            state.failure = error
        }
    }

    /// Writes all of `bytes`, retrying after signals, partial writes and a full non-blocking
    /// descriptor; returns the `errno` that stopped it, or `nil`.
    private static func writeFully(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // Standard output can be a non-blocking descriptor shared with another process.
                var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&request, 1, -1)
            case let error:
                return error
            }
        }
        return nil
    }
}
