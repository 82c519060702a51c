public import Domain
public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an Apple Health export (`export.xml`, or the `export.zip` the Health app writes) into daily
/// values for one user, by the rules of DESIGN §2.
///
/// Streaming: the file is read in 1 MB chunks and never held; memory grows with the number of days
/// in the export, not with its size. See README.md in this folder for how each field is computed.
public struct AppleHealthImport: Sendable {
    public let user: UserID
    /// The zone whose calendar days the values belong to: the user's.
    public let timeZone: TimeZone
    /// Where `unzip` is; `nil` searches `PATH`. Tests set a missing path.
    var unzipPath: String?
    var chunkSize = 1 << 20

    public init(user: UserID, timeZone: TimeZone) {
        self.user = user
        self.timeZone = timeZone
    }

    /// Reads the export at `path`: an export.xml, an export.zip (needs `unzip`), or `-` for an
    /// export.xml on standard input.
    ///
    /// `progress` is called with the bytes read so far after each chunk, on the calling thread.
    /// Records that cannot be used are counted in the summary; only an unreadable or malformed file
    /// throws, and then nothing is returned.
    public func read(path: String, progress: ((Int64) -> Void)? = nil) throws(AppleHealthError) -> AppleHealthResult {
        if path == "-" {
            return try read(input: FileDescriptorInput(descriptor: 0, name: "standard input"), progress: progress)
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .fileNotFound(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw .unreadable(path: path, reason: "it is a directory")
        }
        if ZipArchive.hasZipSignature(descriptor: descriptor) {
            let archive = try ZipArchive(path: path, unzip: unzipPath)
            return try archive.withExportXML { input throws(AppleHealthError) in
                try read(input: input, progress: progress)
            }
        }
        return try read(input: FileDescriptorInput(descriptor: descriptor, name: path), progress: progress)
    }

    /// Reads an export.xml from an open handle (a file, a pipe, standard input). The handle is not closed.
    public func read(from handle: FileHandle, progress: ((Int64) -> Void)? = nil) throws(AppleHealthError)
        -> AppleHealthResult
    {
        try read(input: FileDescriptorInput(descriptor: handle.fileDescriptor, name: "input"), progress: progress)
    }

    func read(input: some ExportInput, progress: ((Int64) -> Void)? = nil) throws(AppleHealthError)
        -> AppleHealthResult
    {
        let scanner = ExportScanner(input: input, chunkSize: chunkSize)
        var decoder = ExportRecordDecoder(timeZone: timeZone)
        try scanner.scan(into: &decoder, progress: progress)

        let ranks = decoder.sourceRanks()
        var aggregator = decoder.aggregator
        let values = aggregator.finish(user: user) { ranks[Int($0)] }

        var summary = AppleHealthSummary()
        summary.bytesRead = scanner.bytesRead
        summary.recordsRead = decoder.recordsRead
        summary.recordsUsed = decoder.used
        summary.recordsEnteredByPerson = decoder.enteredByPerson
        summary.recordsSkipped = decoder.skipped
        summary.typesNotImported = decoder.typesNotImported()
        let days = Set(values.health.map { $0.day }).union(values.userEntered.map { $0.day })
        summary.days = days.count
        summary.firstDay = days.min()
        summary.lastDay = days.max()
        summary.dayValuesOutOfBounds = values.outOfBounds
        return AppleHealthResult(
            health: values.health, userEntered: values.userEntered, timeInBed: values.timeInBed, summary: summary)
    }
}
