import Foundation
import Glibc
import TestSupport
import Testing

@testable import PipelineCLI

@Suite("Writing output")
struct OutputWriterTests {
    private func openFile(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        return descriptor
    }

    private func contents(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("buffered output reaches the file whole and in order after flush")
    func bufferedContent() throws {
        let folder = TemporaryDirectory()
        let path = folder.path("out")
        let descriptor = try openFile(path)
        defer { close(descriptor) }
        let writer = OutputWriter(fileDescriptor: descriptor, buffered: true)

        var expected = ""
        for index in 0..<100_000 {
            writer.writeLine("row \(index)")
            expected += "row \(index)\n"
        }
        writer.write("tail")
        writer.flush()
        #expect(try contents(path) == expected + "tail")
        #expect(writer.failure == nil)
    }

    @Test("buffered output is held until the buffer fills or flush; unbuffered output is written at once")
    func buffering() throws {
        let folder = TemporaryDirectory()
        let bufferedPath = folder.path("buffered")
        let unbufferedPath = folder.path("unbuffered")
        let bufferedDescriptor = try openFile(bufferedPath)
        let unbufferedDescriptor = try openFile(unbufferedPath)
        defer {
            close(bufferedDescriptor)
            close(unbufferedDescriptor)
        }
        let buffered = OutputWriter(fileDescriptor: bufferedDescriptor, buffered: true)
        let unbuffered = OutputWriter(fileDescriptor: unbufferedDescriptor, buffered: false)

        buffered.writeLine("held")
        unbuffered.writeLine("progress")
        #expect(try contents(bufferedPath) == "")
        #expect(try contents(unbufferedPath) == "progress\n")

        buffered.write(String(repeating: "x", count: OutputWriter.bufferSize))
        #expect(try contents(bufferedPath).count == OutputWriter.bufferSize + 5, "a full buffer is written out")
    }

    @Test("writing to a pipe whose reader is gone neither crashes nor fails: output stops quietly")
    func closedPipe() throws {
        // What `CommandIO.standard()` does for the process; without it the first write would kill
        // this test run with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let writer = OutputWriter(fileDescriptor: ends[1], buffered: true)

        #expect(!writer.isClosed)
        for index in 0..<200_000 {
            writer.writeLine("row \(index)")
        }
        writer.flush()
        #expect(writer.isClosed)
        #expect(writer.failure == nil, "a reader going away is not a failure")
    }

    @Test("a failed write other than a closed pipe is kept as the failure")
    func fullDisk() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0, "this test needs /dev/full")
        defer { close(descriptor) }
        let writer = OutputWriter(fileDescriptor: descriptor, buffered: true)
        writer.writeLine("lost")
        writer.flush()
        #expect(writer.isClosed)
        #expect(writer.failure == "No space left on device")
    }

    @Test("lines written from many tasks at once arrive whole")
    func concurrentWriters() async {
        let writer = OutputWriter.memory()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<1_000 {
                        writer.writeLine("task \(task) line \(index)")
                    }
                }
            }
        }
        let lines = writer.text.split(separator: "\n")
        #expect(lines.count == 8_000)
        #expect(Set(lines).count == 8_000)
        #expect(lines.allSatisfy { $0.hasPrefix("task ") && $0.contains(" line ") })
    }

    @Test("a memory writer keeps everything and reports the terminal setting it was given")
    func memory() {
        let writer = OutputWriter.memory(isTerminal: true)
        writer.write("a")
        writer.writeLine("b")
        writer.flush()
        #expect(writer.text == "ab\n")
        #expect(writer.isTerminal)
        #expect(!OutputWriter.memory().isTerminal)
    }
}
