import Foundation

/// An export.zip, read by streaming its export.xml out of `unzip -p`: Foundation has no zip reader,
/// and an archive's central directory is at its end, so a stream-only reader would not do.
struct ZipArchive {
    let path: String
    /// The `unzip` executable.
    let unzip: String

    /// Finds `unzip` (at `unzipPath`, or on `PATH`); throws `.unzipMissing` without it.
    init(path: String, unzip unzipPath: String?) throws(AppleHealthError) {
        self.path = path
        let candidates =
            unzipPath.map { [$0] }
            ?? ((ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/unzip" }
                + ["/usr/bin/unzip"])
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw .unzipMissing
        }
        unzip = found
    }

    /// Whether the file starts with a zip local-file header (`PK\3\4`), read without moving the offset.
    static func hasZipSignature(descriptor: Int32) -> Bool {
        var signature = [UInt8](repeating: 0, count: 4)
        let count = signature.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 4, 0) }
        return count == 4 && signature == [0x50, 0x4B, 0x03, 0x04]
    }

    /// The entry holding export.xml: `apple_health_export/export.xml` (the folder name is localized),
    /// or the shallowest entry named export.xml.
    func exportEntry() throws(AppleHealthError) -> String {
        let listing = try run(["-Z1", path])
        let entries = listing.split(separator: "\n").map(String.init).filter {
            $0 == "export.xml" || $0.hasSuffix("/export.xml")
        }
        guard let entry = entries.min(by: { $0.split(separator: "/").count < $1.split(separator: "/").count })
        else { throw .zipWithoutExport(path: path) }
        return entry
    }

    /// Runs `body` on the export.xml streamed from `unzip -p`; the process is stopped if `body` throws.
    func withExportXML<Result>(
        _ body: (FileDescriptorInput) throws(AppleHealthError) -> Result
    ) throws(AppleHealthError) -> Result {
        let entry = try exportEntry()
        let (output, errors) = (Pipe(), Pipe())
        // unzip matches entry names as wildcards; brackets make `[`, `*` and `?` literal.
        let process = try start(["-p", path, ZipArchive.literalPattern(entry)], output: output, errors: errors)
        let result: Result
        do {
            result = try body(
                FileDescriptorInput(descriptor: output.fileHandleForReading.fileDescriptor, name: "\(path):\(entry)"))
        } catch {
            // Closing the pipe makes unzip's next write fail with SIGPIPE, which ends it even where
            // SIGTERM is blocked (a child inherits its parent thread's signal mask).
            try? output.fileHandleForReading.close()
            process.terminate()
            process.waitUntilExit()
            throw error
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .unzipFailed(status: process.terminationStatus, message: ZipArchive.firstLine(errors))
        }
        return result
    }

    /// Runs unzip with `arguments` and returns its standard output.
    private func run(_ arguments: [String]) throws(AppleHealthError) -> String {
        let (output, errors) = (Pipe(), Pipe())
        let process = try start(arguments, output: output, errors: errors)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .unzipFailed(status: process.terminationStatus, message: ZipArchive.firstLine(errors))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts unzip with `arguments`, its standard output and error into the pipes.
    private func start(_ arguments: [String], output: Pipe, errors: Pipe) throws(AppleHealthError) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unzip)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw .unzipFailed(status: -1, message: "\(error)")
        }
        return process
    }

    private static func firstLine(_ pipe: Pipe) -> String {
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").first.map(String.init) ?? ""
    }

    static func literalPattern(_ name: String) -> String {
        var pattern = ""
        for character in name {
            if "[*?".contains(character) { pattern += "[\(character)]" } else { pattern.append(character) }
        }
        return pattern
    }
}
