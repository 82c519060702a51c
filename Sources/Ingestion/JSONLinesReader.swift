import Foundation

/// Splits a byte stream into lines without loading it whole: it reads fixed-size chunks from a
/// file descriptor and hands each complete line to the caller.
///
/// Lines end with `\n` (a `\r` before it is dropped); a last line without a newline counts. A line
/// longer than `maximumLineLength` is skipped to its end without being buffered, and reported.
public struct JSONLinesReader {
    /// Longer lines are rejected: no valid record comes near this (notes are capped at 2,000
    /// characters), and it bounds the memory a hostile input can take.
    public static let maximumLineLength = 1 << 20

    public enum Line {
        /// A complete line, valid only inside the callback.
        case text(UnsafeBufferPointer<UInt8>)
        /// A line that exceeded `maximumLineLength`; its bytes were discarded.
        case tooLong
    }

    /// Where the bytes come from.
    public enum Source: Sendable {
        /// An open file descriptor (a file, a pipe, standard input), which the caller closes.
        case descriptor(Int32)
        /// Bytes already in memory.
        case bytes([UInt8])
    }

    let source: Source
    let chunkSize: Int

    public init(_ source: Source, chunkSize: Int = 1 << 20) {
        self.source = source
        self.chunkSize = chunkSize
    }

    /// Calls `body` with each line and its 1-based number. Blank lines are counted but not passed.
    /// Returns a failure when the descriptor cannot be read; lines before it were already passed.
    public func forEachLine<E: Error>(_ body: (Int, Line) throws(E) -> Void) throws(E) -> Result<Void, IngestionError> {
        try forEachLine(body, caughtUp: { () throws(E) in })
    }

    /// `forEachLine(_:)`, also calling `caughtUp` after the lines of a read that returned less than
    /// asked for: the source had no more ready (a pipe waiting for its writer), so the next read
    /// may wait.
    public func forEachLine<E: Error>(
        _ body: (Int, Line) throws(E) -> Void, caughtUp: () throws(E) -> Void
    ) throws(E) -> Result<Void, IngestionError> {
        // Room for one chunk after the longest partial line carried over from the previous read.
        var buffer = [UInt8](repeating: 0, count: chunkSize + JSONLinesReader.maximumLineLength)
        var carried = 0
        var lineNumber = 0
        var skippingLongLine = false
        var consumed = 0  // of an in-memory source
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                switch source {
                case .descriptor(let descriptor):
                    return read(descriptor, raw.baseAddress! + carried, chunkSize)
                case .bytes(let bytes):
                    let count = min(chunkSize, bytes.count - consumed)
                    bytes.withUnsafeBytes { source in
                        (raw.baseAddress! + carried).copyMemory(from: source.baseAddress! + consumed, byteCount: count)
                    }
                    consumed += count
                    return count
                }
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.cannotRead(path: "input", reason: String(cString: strerror(errno))))
            }
            let end = carried + count
            let isEndOfInput = count == 0
            var start = 0
            try buffer.withUnsafeBufferPointer { (bytes) throws(E) in
                while let newline = Self.firstNewline(bytes, from: start, to: end) {
                    lineNumber += 1
                    if skippingLongLine {
                        skippingLongLine = false
                    } else {
                        try emit(bytes, start, newline, lineNumber, body)
                    }
                    start = newline + 1
                }
                if isEndOfInput, start < end, !skippingLongLine {
                    lineNumber += 1
                    try emit(bytes, start, end, lineNumber, body)
                }
            }
            if isEndOfInput { return .success(()) }
            if count < chunkSize { try caughtUp() }
            let remaining = end - start
            if skippingLongLine {
                carried = 0
            } else if remaining > JSONLinesReader.maximumLineLength {
                // Report now and drop the rest of the line as it arrives; its number is counted
                // when its newline is found.
                try body(lineNumber + 1, .tooLong)
                skippingLongLine = true
                carried = 0
            } else {
                if start > 0, remaining > 0 {
                    buffer.withUnsafeMutableBytes { raw in
                        _ = memmove(raw.baseAddress!, raw.baseAddress! + start, remaining)
                    }
                }
                carried = remaining
            }
        }
    }

    private func emit<E: Error>(
        _ all: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ number: Int,
        _ body: (Int, Line) throws(E) -> Void
    ) throws(E) {
        var start = start
        var stop = end
        if stop > start, all[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
        // A UTF-8 byte order mark, which some Windows editors write, carries no content (RFC 8259 §8.1
        // lets a parser ignore it); it is allowed only where it can be: at the start of the input.
        if number == 1, stop - start >= 3, all[start] == 0xEF, all[start + 1] == 0xBB, all[start + 2] == 0xBF {
            start += 3
        }
        let line = UnsafeBufferPointer(rebasing: all[start..<stop])
        if line.count > JSONLinesReader.maximumLineLength {
            try body(number, .tooLong)
            return
        }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        try body(number, .text(line))
    }

    private static func firstNewline(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start)
        else { return nil }
        return found.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base)
    }
}
