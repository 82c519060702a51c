import Foundation
import TestSupport
import Testing

/// `scripts/install-cron.sh`, run with bash. `--install` talks to `crontab`, which a test replaces by
/// a stand-in on PATH that keeps the crontab in a file.
@Suite("The cron installer", .timeLimit(.minutes(10)))
struct SchedulerCronScriptTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/install-cron.sh").path

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], path: String = "/usr/bin:/bin", in folder: TemporaryDirectory) throws
        -> Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script] + arguments
        process.environment = ["PATH": path, "HOME": folder.url.path]
        process.currentDirectoryURL = folder.url
        let (output, error) = (folder.path("out-\(UUID().uuidString)"), folder.path("err-\(UUID().uuidString)"))
        try Data().write(to: URL(fileURLWithPath: output))
        try Data().write(to: URL(fileURLWithPath: error))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: error))
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: try String(contentsOfFile: output, encoding: .utf8),
            stderr: try String(contentsOfFile: error, encoding: .utf8))
    }

    /// A folder with an executable to stand for pipeline, and a `crontab` that keeps its table in a file.
    static func folder() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory("cron")
        let fakeCrontab = """
            #!/bin/sh
            table="$HOME/table"
            if [ "$1" = "-l" ]; then [ -f "$table" ] && cat "$table"; exit 0; fi
            cat > "$table"
            """
        let bin = folder.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for (name, text) in [("crontab", fakeCrontab), ("pipeline", "#!/bin/sh\nexit 0\n")] {
            let path = bin.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        return folder
    }

    @Test("prints a run entry every 15 minutes and a nightly retrain entry, with absolute paths")
    func prints() throws {
        let folder = try Self.folder()
        let result = try Self.run(["--binary", "bin/pipeline", "--db", "data/p.sqlite"], in: folder)
        #expect(result.status == 0)
        let root = folder.url.resolvingSymlinksInPath().path
        let lines = result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(
            lines == [
                "*/15 * * * * PIPELINE_DB='\(root)/data/p.sqlite' '\(root)/bin/pipeline' run",
                "0 3 * * * PIPELINE_DB='\(root)/data/p.sqlite' '\(root)/bin/pipeline' retrain",
            ])
    }

    @Test("refuses what cron would misread, with status 64")
    func refuses() throws {
        let folder = try Self.folder()
        for arguments in [["--every", "7"], ["--retrain-at", "25:00"], ["--db", "50%.sqlite"], ["--frobnicate"]] {
            let result = try Self.run(["--binary", "bin/pipeline"] + arguments, in: folder)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("Error: "), "\(arguments)")
        }
    }

    @Test("--install adds the entries, keeps the other lines, and replaces its own entries when run again")
    func installs() throws {
        let folder = try Self.folder()
        let table = folder.path("table")
        try Data("MAILTO=ops@example.com\n0 0 * * * /usr/bin/backup\n".utf8).write(to: URL(fileURLWithPath: table))
        let path = folder.url.appendingPathComponent("bin").path + ":/usr/bin:/bin"
        #expect(try Self.run(["--install", "--binary", "bin/pipeline"], path: path, in: folder).status == 0)
        #expect(
            try Self.run(["--install", "--binary", "bin/pipeline", "--every", "30"], path: path, in: folder).status == 0
        )
        let lines = try String(contentsOfFile: table, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["MAILTO=ops@example.com", "0 0 * * * /usr/bin/backup"])
        #expect(lines.filter { $0 == "# BEGIN pipeline (scripts/install-cron.sh)" }.count == 1)
        #expect(lines.filter { $0.hasSuffix(" run") }.map { $0.prefix(12) } == ["*/30 * * * *"])
        #expect(lines.filter { $0.hasSuffix(" retrain") }.count == 1)
    }
}
