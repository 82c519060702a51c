import Foundation
import Ingestion
import TestSupport
import Testing

@Suite("JSON Lines reader")
struct JSONLinesReaderTests {
    /// Reads `bytes` through a file with a deliberately small chunk size, so lines straddle reads.
    func lines(of bytes: [UInt8], chunkSize: Int) throws -> [(Int, String?)] {
        let directory = TemporaryDirectory()
        let path = directory.path("input")
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var seen: [(Int, String?)] = []
        let result = JSONLinesReader(.descriptor(descriptor), chunkSize: chunkSize).forEachLine { number, line in
            switch line {
            case .text(let bytes): seen.append((number, String(decoding: bytes, as: UTF8.self)))
            case .tooLong: seen.append((number, nil))
            }
        }
        if case .failure(let error) = result { throw error }
        // The same bytes from memory read the same.
        var fromMemory: [(Int, String?)] = []
        _ = JSONLinesReader(.bytes(bytes), chunkSize: chunkSize).forEachLine { number, line in
            switch line {
            case .text(let bytes): fromMemory.append((number, String(decoding: bytes, as: UTF8.self)))
            case .tooLong: fromMemory.append((number, nil))
            }
        }
        #expect(fromMemory.map(\.0) == seen.map(\.0))
        #expect(fromMemory.map(\.1) == seen.map(\.1))
        return seen
    }

    @Test(
        "lines are numbered from 1, blank lines counted but skipped, CRLF and a missing final newline handled",
        arguments: [1, 2, 3, 7, 64, 1 << 16])
    func numbering(chunkSize: Int) throws {
        let text = "first\r\n\n  \nsecond\nthird"
        let seen = try lines(of: Array(text.utf8), chunkSize: chunkSize)
        #expect(seen.map(\.0) == [1, 4, 5])
        #expect(seen.map(\.1) == ["first", "second", "third"])
    }

    @Test("a UTF-8 byte order mark at the start is dropped, and kept anywhere else", arguments: [1, 2, 64])
    func byteOrderMark(chunkSize: Int) throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let seen = try lines(of: mark + Array("first\n".utf8) + mark + Array("second\n".utf8), chunkSize: chunkSize)
        #expect(seen.map(\.0) == [1, 2])
        #expect(seen.map(\.1) == ["first", "\u{FEFF}second"])
        // A mark alone on the first line leaves a blank line, which is counted and skipped.
        #expect(try lines(of: mark + Array("\nnext".utf8), chunkSize: chunkSize).map(\.0) == [2])
    }

    @Test("a line over the limit is reported once by number and the lines after it still arrive")
    func tooLong() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: JSONLinesReader.maximumLineLength + 10)
        let bytes = Array("a\n".utf8) + long + Array("\nb\n".utf8) + long
        let seen = try lines(of: bytes, chunkSize: 1 << 16)
        #expect(seen.map(\.0) == [1, 2, 3, 4])
        #expect(seen.map(\.1) == ["a", nil, "b", nil])
    }
}
