import Domain
import Foundation
import TestSupport
import Testing

@testable import Ingestion

/// Files, archives and streams: what a user passes to `pipeline ingest --format apple-health`.
@Suite("Apple Health export inputs", .timeLimit(.minutes(10)))
struct AppleHealthInputTests {
    static let hasZip = FileManager.default.isExecutableFile(atPath: "/usr/bin/zip")
    static let sample = "alxdrcirilo-apple-health-parser-export.xml"

    /// Runs `zip -q -r archive folder` in `directory`, as a person compressing an export would.
    static func zip(_ archive: String, _ folder: String, in directory: TemporaryDirectory) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        process.arguments = ["-q", "-r", archive, folder]
        process.currentDirectoryURL = directory.url
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    /// An `apple_health_export/` folder as the Health app writes it, holding `files`.
    static func exportFolder(in directory: TemporaryDirectory, files: [String: String]) throws {
        let folder = directory.url.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, source) in files {
            try FileManager.default.copyItem(atPath: source, toPath: folder.appendingPathComponent(name).path)
        }
    }

    @Test("an export.zip reads like its export.xml", .enabled(if: hasZip, "zip is needed to build the archive"))
    func readsZip() throws {
        let directory = TemporaryDirectory()
        try Self.exportFolder(
            in: directory,
            files: [
                "export.xml": fixture(Self.sample),
                // The clinical document beside it must not be taken for the export.
                "export_cda.xml": fixture("aleksi-applehealth-testdata.xml"),
            ])
        try Self.zip("export.zip", "apple_health_export", in: directory)
        let importer = AppleHealthImport.ada(in: "Europe/Amsterdam")
        let fromZip = try importer.read(path: directory.path("export.zip"))
        let fromXML = try importer.read(path: fixture(Self.sample))
        #expect(fromZip == fromXML)
        #expect(fromZip.summary.recordsRead == 8)
    }

    @Test("a zip without export.xml is named as such", .enabled(if: hasZip, "zip is needed to build the archive"))
    func zipWithoutExport() throws {
        let directory = TemporaryDirectory()
        try Self.exportFolder(in: directory, files: ["export_cda.xml": fixture(Self.sample)])
        try Self.zip("export.zip", "apple_health_export", in: directory)
        let path = directory.path("export.zip")
        #expect(throws: AppleHealthError.zipWithoutExport(path: path)) {
            try AppleHealthImport.ada().read(path: path)
        }
    }

    @Test("a zip needs unzip, and says how to install it", .enabled(if: hasZip, "zip is needed to build the archive"))
    func unzipMissing() throws {
        let directory = TemporaryDirectory()
        try Self.exportFolder(in: directory, files: ["export.xml": fixture(Self.sample)])
        try Self.zip("export.zip", "apple_health_export", in: directory)
        var importer = AppleHealthImport.ada()
        importer.unzipPath = directory.path("no-unzip-here")
        #expect(throws: AppleHealthError.unzipMissing) { try importer.read(path: directory.path("export.zip")) }
        #expect(AppleHealthError.unzipMissing.description.contains("apt-get install unzip"))
    }

    @Test("a damaged zip reports unzip's failure", .enabled(if: hasZip, "zip is needed to build the archive"))
    func damagedZip() throws {
        let directory = TemporaryDirectory()
        try Self.exportFolder(in: directory, files: ["export.xml": fixture("tdda-applehealthdata-export6s3sample.xml")])
        try Self.zip("export.zip", "apple_health_export", in: directory)
        // Keep the local header (so it is recognised as a zip) but cut off the central directory.
        let whole = try Data(contentsOf: directory.url.appendingPathComponent("export.zip"))
        try whole.prefix(whole.count / 2).write(to: directory.url.appendingPathComponent("cut.zip"))
        #expect {
            try AppleHealthImport.ada().read(path: directory.path("cut.zip"))
        } throws: { error in
            guard case .unzipFailed(let status, _) = error as? AppleHealthError else { return false }
            return status != 0
        }
    }

    @Test("malformed XML inside a zip is reported and unzip is stopped", .enabled(if: hasZip, "zip is needed"))
    func malformedInsideZip() throws {
        let directory = TemporaryDirectory()
        let broken = directory.path("broken.xml")
        // Enough records that unzip is still writing when the scanner stops at line 3.
        let filler = String(
            repeating: "<Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"1\"/>\n", count: 50_000)
        try ("<HealthData>\n<Record type=\"a\"/>\n<Record type=oops/>\n" + filler + "</HealthData>\n")
            .write(toFile: broken, atomically: true, encoding: .utf8)
        try Self.exportFolder(in: directory, files: ["export.xml": broken])
        try Self.zip("export.zip", "apple_health_export", in: directory)
        #expect(
            throws: AppleHealthError.malformedXML(line: 3, column: 14, problem: "the value of type must be in quotes")
        ) {
            try AppleHealthImport.ada().read(path: directory.path("export.zip"))
        }
    }

    @Test("an export.xml streams from a pipe, as from standard input")
    func readsPipe() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture(Self.sample)))
        let pipe = Pipe()
        // The fixture is smaller than a pipe's buffer, so writing it all before reading cannot block.
        try pipe.fileHandleForWriting.write(contentsOf: bytes)
        try pipe.fileHandleForWriting.close()
        let importer = AppleHealthImport.ada(in: "Europe/Amsterdam")
        let streamed = try importer.read(from: pipe.fileHandleForReading)
        #expect(streamed == (try importer.read(path: fixture(Self.sample))))
    }

    /// A real export damaged inside the first `sourceName` value, and where that is (line, column).
    static func damaged(with bytes: [UInt8]) throws -> (export: [UInt8], line: Int, column: Int) {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture(sample))))
        let marker = Array("sourceName=\"".utf8)
        let at = try #require(original.indices.first { original[$0...].starts(with: marker) }) + marker.count
        let before = original[..<at]
        let lineStart = (before.lastIndex(of: 10) ?? -1) + 1
        let column = String(decoding: original[lineStart..<at], as: UTF8.self).unicodeScalars.count + 1
        return (Array(before) + bytes + original[at...], before.count { $0 == 10 } + 1, column)
    }

    @Test(
        "a real export holding a NUL byte, a control character, invalid UTF-8 or a bad reference is refused whole",
        arguments: [
            (
                [0x00],
                "a NUL byte in the value of sourceName; XML allows no control character but tab, line feed and "
                    + "carriage return"
            ),
            (
                [0x1B, 0x5B, 0x32, 0x4A],
                "the control character U+001B in the value of sourceName; XML allows no control "
                    + "character but tab, line feed and carriage return"
            ),
            ([0xFF], "invalid UTF-8 in the value of sourceName: an export.xml is UTF-8 text"),
            (Array("&#1;".utf8), ExportScannerTests.entityProblem),
        ])
    func refusesWhatIsNotText(bytes: [UInt8], problem: String) throws {
        let (export, line, column) = try Self.damaged(with: bytes)
        let directory = TemporaryDirectory()
        let path = directory.path("export.xml")
        try Data(export).write(to: URL(fileURLWithPath: path))
        #expect(throws: AppleHealthError.malformedXML(line: line, column: column, problem: problem)) {
            try AppleHealthImport.ada().read(path: path)
        }
    }

    @Test("a missing file and a directory are told apart")
    func unreadablePaths() throws {
        let directory = TemporaryDirectory()
        let missing = directory.path("export.xml")
        #expect(throws: AppleHealthError.fileNotFound(path: missing)) {
            try AppleHealthImport.ada().read(path: missing)
        }
        #expect(throws: AppleHealthError.unreadable(path: directory.url.path, reason: "it is a directory")) {
            try AppleHealthImport.ada().read(path: directory.url.path)
        }
    }

    @Test("progress reports the bytes read, ending at the file's size")
    func progress() throws {
        let path = fixture("tdda-applehealthdata-export6s3sample.xml")
        var reports: [Int64] = []
        var importer = AppleHealthImport.ada(in: "Europe/London")
        importer.chunkSize = 1024
        _ = try importer.read(path: path) { reports.append($0) }
        #expect(reports.count > 1)  // 7002 bytes through a buffer that starts at 1 KB
        #expect(reports == reports.sorted())
        #expect(reports.last == 7002)
    }

    @Test(
        "the benchmark's generated export imports cleanly, with its steps deduplicated",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
    func generatedExport() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("export.xml")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            repositoryRoot.appendingPathComponent("scripts/make-health-export.py").path, "--size-mb", "6",
            "--seed", "3", "--start", "2026-03-20", "--out", path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let result = try AppleHealthImport.ada().read(path: path)
        #expect(result.summary.recordsRead == lines.filter { $0.hasPrefix(" <Record ") }.count)
        // Awake stages and the types a DailyLog has no field for are the only records set aside.
        #expect(Set(result.summary.recordsSkipped.keys).isSubset(of: [.typeNotImported, .awake]))
        #expect(result.summary.dayValuesOutOfBounds.isEmpty)
        #expect(result.health.count >= 9)

        // The generator's iPhone and Watch record the same walks, the Watch's pieces 200 s later:
        // a day counts the Watch's steps plus the few iPhone seconds the Watch does not cover,
        // so more than the Watch's sum and less than it plus half the iPhone's.
        var watch: [String: Int] = [:]
        var phone: [String: Int] = [:]
        for line in lines where line.contains("HKQuantityTypeIdentifierStepCount") {
            func attribute(_ name: String) -> Substring {
                let start = line.range(of: " \(name)=\"")!.upperBound
                return line[start...].prefix { $0 != "\"" }
            }
            let day = String(attribute("startDate").prefix(10))
            let count = Int(attribute("value"))!
            if attribute("sourceName").contains("Watch") {
                watch[day, default: 0] += count
            } else {
                phone[day, default: 0] += count
            }
        }
        #expect(watch.count >= 9 && watch.keys.sorted() == phone.keys.sorted())
        for (key, watchSteps) in watch {
            let steps = try #require(result.health(on: key)?.stepCount)
            let phoneSteps = try #require(phone[key])
            #expect(steps > watchSteps && steps < watchSteps + phoneSteps / 2, "\(key)")
        }
    }
}
