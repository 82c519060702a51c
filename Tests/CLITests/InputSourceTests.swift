import Foundation
import TestSupport
import Testing

@testable import PipelineCLI

@Suite("Reading input")
struct InputSourceTests {
    @Test("lines end at \\n or \\r\\n; empty lines count; a last line needs no newline")
    func linesFromMemory() throws {
        let input = InputSource(text: "a\r\nb\n\nc")
        var lines: [String] = []
        while let line = try input.readLine() {
            lines.append(line)
        }
        #expect(lines == ["a", "b", "", "c"])
        #expect(try input.readLine() == nil)
    }

    @Test("lines longer than a read chunk and lines split across chunks come out whole")
    func linesAcrossChunks() throws {
        let folder = TemporaryDirectory()
        let path = folder.path("in.jsonl")
        let lines = (0..<2_000).map { index in String(repeating: "x", count: index % 37) + "\(index)" }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))

        let opened = try InputSource.open(path: path)
        let descriptor = try #require(opened.fileDescriptor)
        let input = InputSource(fileDescriptor: descriptor, owned: false, chunkSize: 7)
        var read: [String] = []
        while let line = try input.readLine() {
            read.append(line)
        }
        #expect(read == lines)
    }

    @Test("chunks, lines and the rest can be mixed without losing a byte")
    func mixedReads() throws {
        let folder = TemporaryDirectory()
        let path = folder.path("in")
        try Data("header\nbody line\nrest of it".utf8).write(to: URL(fileURLWithPath: path))
        let input = try InputSource.open(path: path)
        #expect(try input.readLine() == "header")
        #expect(try input.read(upTo: 4) == Array("body".utf8))
        #expect(try input.readLine() == " line")
        #expect(try input.readAll() == Array("rest of it".utf8))
        #expect(try input.read(upTo: 10) == [])
        #expect(try input.readLine() == nil)
    }

    @Test("a missing file or a directory cannot be opened, and the error says which and why")
    func openErrors() throws {
        let folder = TemporaryDirectory()
        #expect(throws: CLIError.cannotOpen(path: folder.path("absent"), reason: "No such file or directory")) {
            try InputSource.open(path: folder.path("absent"))
        }
        #expect(throws: CLIError.cannotOpen(path: folder.url.path, reason: "it is a directory")) {
            try InputSource.open(path: folder.url.path)
        }
        #expect(CLIError.cannotOpen(path: "x", reason: "y").exitStatus == .failure)
    }
}
