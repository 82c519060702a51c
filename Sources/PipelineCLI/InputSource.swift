import Domain
import Glibc

/// Bytes a command reads: standard input, a file named on the command line, or, in tests, text in
/// memory. Reads by chunk, all at once, or by line; the three share one buffer, so they can be mixed.
public final class InputSource: Sendable {
    private struct State {
        var buffer: [UInt8]
        /// The first byte of `buffer` not yet handed out.
        var start = 0
        var atEnd: Bool
    }

    /// The descriptor read from; `nil` for text in memory. A command that hands the stream to
    /// another reader (an XML parser) takes it from here, before reading anything itself.
    let fileDescriptor: Int32?
    private let ownsDescriptor: Bool
    private let chunkSize: Int
    private let state: Locked<State>

    /// Reads `fileDescriptor`, which the source does not close.
    public convenience init(fileDescriptor: Int32) {
        self.init(fileDescriptor: fileDescriptor, owned: false)
    }

    /// Reads `text`, encoded as UTF-8.
    public convenience init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Reads `bytes`.
    public init(bytes: [UInt8]) {
        fileDescriptor = nil
        ownsDescriptor = false
        chunkSize = 0
        state = Locked(State(buffer: bytes, atEnd: true))
    }

    init(fileDescriptor: Int32, owned: Bool, chunkSize: Int = 64 * 1024) {
        self.fileDescriptor = fileDescriptor
        ownsDescriptor = owned
        self.chunkSize = chunkSize
        state = Locked(State(buffer: [], atEnd: false))
    }

    /// Opens the file at `path` for reading; it is closed when the source is released.
    static func open(path: String) throws(CLIError) -> InputSource {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: lastError()) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw .cannotOpen(path: path, reason: "it is a directory")
        }
        return InputSource(fileDescriptor: descriptor, owned: true)
    }

    deinit {
        if ownsDescriptor, let fileDescriptor {
            close(fileDescriptor)
        }
    }

    /// Up to `count` bytes; empty only at the end of the input.
    func read(upTo count: Int) throws(CLIError) -> [UInt8] {
        precondition(count > 0, "read(upTo:) needs a positive count")
        return try state.withLock { (state: inout State) throws(CLIError) -> [UInt8] in
            if state.start == state.buffer.count, !state.atEnd {
                state.buffer.removeAll(keepingCapacity: true)
                state.start = 0
                try fill(&state, atLeast: count)
            }
            let end = min(state.buffer.count, state.start + count)
            defer { state.start = end }
            return Array(state.buffer[state.start..<end])
        }
    }

    /// Everything up to the end of the input.
    func readAll() throws(CLIError) -> [UInt8] {
        try state.withLock { (state: inout State) throws(CLIError) -> [UInt8] in
            while !state.atEnd {
                try fill(&state, atLeast: chunkSize)
            }
            defer { state.start = state.buffer.count }
            return Array(state.buffer[state.start...])
        }
    }

    /// The next line without its `\n` (or `\r\n`), or `nil` at the end of the input. A last line
    /// without a newline is still a line. Bytes that are not UTF-8 become U+FFFD.
    func readLine() throws(CLIError) -> String? {
        try state.withLock { (state: inout State) throws(CLIError) -> String? in
            var searched = state.start
            while true {
                if let newline = state.buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                    defer { state.start = newline + 1 }
                    return Self.line(state.buffer[state.start..<newline])
                }
                if state.atEnd {
                    guard state.start < state.buffer.count else { return nil }
                    defer { state.start = state.buffer.count }
                    return Self.line(state.buffer[state.start...])
                }
                // Keep only the unfinished line, then read more of it.
                state.buffer.removeSubrange(0..<state.start)
                state.start = 0
                searched = state.buffer.count
                try fill(&state, atLeast: chunkSize)
            }
        }
    }

    private static func line(_ bytes: ArraySlice<UInt8>) -> String {
        let content = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
        return String(decoding: content, as: UTF8.self)
    }

    /// Appends one `read(2)` of up to `count` bytes to the buffer; marks the end at zero bytes.
    private func fill(_ state: inout State, atLeast count: Int) throws(CLIError) {
        guard let fileDescriptor else {
            state.atEnd = true
            return
        }
        let size = max(count, chunkSize)
        let oldCount = state.buffer.count
        state.buffer.append(contentsOf: repeatElement(0, count: size))
        var received = 0
        while true {
            received = state.buffer.withUnsafeMutableBytes {
                Glibc.read(fileDescriptor, $0.baseAddress! + oldCount, size)
            }
            if received >= 0 || errno != EINTR { break }
        }
        state.buffer.removeLast(size - max(received, 0))
        guard received >= 0 else { throw .cannotRead(reason: Self.lastError()) }
        if received == 0 {
            state.atEnd = true
        }
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
