#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the bytes of an export.xml come from: a file, standard input, a pipe from `unzip`, or
/// memory in tests. The scanner pulls from it chunk by chunk and never holds more than one chunk
/// plus the markup that straddles two chunks.
protocol ExportInput {
    /// Reads up to `count` bytes into `buffer` and returns how many it read; 0 means the end.
    mutating func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(AppleHealthError) -> Int
}

/// An open file descriptor: a regular file, a pipe or a terminal. Not closed here; its owner closes it.
struct FileDescriptorInput: ExportInput {
    let descriptor: Int32
    /// Names the input in error messages.
    let name: String

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(AppleHealthError) -> Int {
        while true {
            #if canImport(Glibc)
                let result = Glibc.read(descriptor, buffer, count)
            #else
                let result = Darwin.read(descriptor, buffer, count)
            #endif
            if result >= 0 { return result }
            // A signal interrupted the call before it read anything: POSIX says retry.
            if errno == EINTR { continue }
            throw .unreadable(path: name, reason: String(cString: strerror(errno)))
        }
    }
}

/// Bytes in memory, handed out at most `chunk` at a time so that tests can put a chunk boundary
/// inside every construct of a document.
struct MemoryInput: ExportInput {
    let bytes: [UInt8]
    let chunk: Int
    private var offset = 0

    init(_ bytes: [UInt8], chunk: Int = 1 << 20) {
        precondition(chunk > 0, "a chunk holds at least one byte")
        self.bytes = bytes
        self.chunk = chunk
    }

    mutating func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(AppleHealthError) -> Int {
        let length = min(count, chunk, bytes.count - offset)
        guard length > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: source.baseAddress! + offset, byteCount: length)
        }
        offset += length
        return length
    }
}
