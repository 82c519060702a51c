import Foundation
import Testing

/// `scripts/mutate.sh` puts each bug back from its patch; a patch that no longer applies to the
/// sources would leave its bug unchecked. Each must apply, every run.
@Suite("Regression mutations")
struct MutationPatchTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("each of the ten bugs' patches applies to the current sources", arguments: 1...10)
    func applies(bug: Int) throws {
        let name = String(format: "Tests/RegressionTests/Mutations/bug-%02d.patch", bug)
        let patch = Self.root.appendingPathComponent(name)
        #expect(FileManager.default.fileExists(atPath: patch.path))
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["apply", "--check", patch.path]
        git.currentDirectoryURL = Self.root
        let errors = Pipe()
        git.standardError = errors
        try git.run()
        git.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(git.terminationStatus == 0, "bug-\(bug): \(message)")
    }
}
