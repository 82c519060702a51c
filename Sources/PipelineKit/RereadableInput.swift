import Foundation
import Ingestion

#if canImport(Glibc)
    import Glibc
#endif

/// An input a strict ingestion reads twice: a regular file or bytes as they are, a stream (a pipe,
/// a terminal) first copied to a spool file that is unlinked at once — created 0600, it never
/// appears in a listing and disappears with the process.
final class RereadableInput: Sendable {
    let source: JSONLinesReader.Source
    /// Where a descriptor's reading starts, to come back to.
    private let start: off_t
    private let spool: Int32?

    /// `init(_:)` on a thread of its own: a stream is copied as fast as its writer delivers it, and a slow
    /// pipe holds no thread of the cooperative pool meanwhile.
    static func reading(_ source: JSONLinesReader.Source) async throws(IngestionError) -> RereadableInput {
        let read = await withCheckedContinuation {
            (done: CheckedContinuation<Result<RereadableInput, IngestionError>, Never>) in
            let thread = Thread {
                done.resume(returning: Result { () throws(IngestionError) in try RereadableInput(source) })
            }
            thread.name = "pipeline-spool"
            thread.start()
        }
        return try read.get()
    }

    init(_ source: JSONLinesReader.Source) throws(IngestionError) {
        guard case .descriptor(let descriptor) = source else {
            (self.source, start, spool) = (source, 0, nil)
            return
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            (self.source, start, spool) = (source, lseek(descriptor, 0, SEEK_CUR), nil)
            return
        }
        let spool = try Self.spool(descriptor)
        (self.source, start, self.spool) = (.descriptor(spool), 0, spool)
    }

    deinit {
        if let spool { close(spool) }
    }

    /// The input again, from where it started.
    func rewound() throws(IngestionError) -> JSONLinesReader.Source {
        guard case .descriptor(let descriptor) = source else { return source }
        guard lseek(descriptor, start, SEEK_SET) == start else {
            let reason = String(cString: strerror(errno))
            throw .cannotRead(path: "input", reason: "cannot read it a second time: \(reason)")
        }
        return source
    }

    /// Copies everything `descriptor` delivers into a new unlinked file, and returns that file,
    /// positioned at its start.
    private static func spool(_ descriptor: Int32) throws(IngestionError) -> Int32 {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-ingest-XXXXXX").path.utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { throw failure("cannot create a spool file for it") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                close(file)
                throw .cannotRead(path: "input", reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(file, $0.baseAddress! + written, count - written) }
                if step < 0, errno == EINTR { continue }
                guard step > 0 else {
                    let error = failure("cannot spool it")
                    close(file)
                    throw error
                }
                written += step
            }
        }
        guard lseek(file, 0, SEEK_SET) == 0 else {
            let error = failure("cannot read its spool file")
            close(file)
            throw error
        }
        return file
    }

    private static func failure(_ what: String) -> IngestionError {
        let reason = String(cString: strerror(errno))
        return .cannotRead(path: "input", reason: "\(what) (a strict ingestion reads a stream twice): \(reason)")
    }
}
