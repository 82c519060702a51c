/// Why an Apple Health export could not be read at all. Problems with single records are not
/// errors: they are counted in `AppleHealthSummary.skipped` and the rest of the export is used.
public enum AppleHealthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at `path`.
    case fileNotFound(path: String)
    /// The file exists but cannot be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The bytes are not well-formed XML at `line`:`column` (1-based; the column counts characters).
    case malformedXML(line: Int, column: Int, problem: String)
    /// Well-formed XML whose root element is not `HealthData` (for example `export_cda.xml`).
    case notAnExport(rootElement: String)
    /// A zip archive with no `export.xml` entry.
    case zipWithoutExport(path: String)
    /// A zip archive was given, but the `unzip` program is not installed.
    case unzipMissing
    /// `unzip` ran and failed.
    case unzipFailed(status: Int32, message: String)
    /// Zip archives need a seekable file; standard input is a stream.
    case zipOnStandardInput

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "\(path): no such file. Pass the export.xml (or export.zip) that the Health app exported."
        case .unreadable(let path, let reason):
            "\(path): cannot be read (\(reason)). Check the path and its permissions."
        case .malformedXML(let line, let column, let problem):
            "line \(line), column \(column): \(problem). The export is damaged or truncated; export it again from "
                + "the Health app (profile picture → Export All Health Data)."
        case .notAnExport(let rootElement):
            "the XML's root element is <\(rootElement)>, not <HealthData>: this is not an Apple Health export.xml "
                + "(export_cda.xml is the clinical document; use export.xml)."
        case .zipWithoutExport(let path):
            "\(path): the zip archive has no export.xml. Pass the export.zip the Health app wrote, unchanged."
        case .unzipMissing:
            "reading export.zip needs the unzip program, which is not installed. Install it "
                + "(`apt-get install unzip`) or unzip the archive and pass export.xml."
        case .unzipFailed(let status, let message):
            "unzip failed with status \(status)\(message.isEmpty ? "" : ": \(message)"). Check that the archive is "
                + "complete, or unzip it yourself and pass export.xml."
        case .zipOnStandardInput:
            "a zip archive cannot be read from standard input. Pass the export.zip path, or pipe export.xml "
                + "(`unzip -p export.zip '*/export.xml' | pipeline ingest --format apple-health - …`)."
        }
    }
}
