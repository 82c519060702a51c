import Domain
public import Foundation
import Testing

/// A fresh directory under the system's temporary folder, removed when the value is released — or, for one still
/// held when the test process exits (a fixture shared by a suite's tests, kept in a static), at exit, naming the test
/// that made it.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init(_ label: String = "pipeline-test") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        Self.removesHeldAtExit
        Self.held.withLock { $0[url] = Test.current?.name ?? "outside a test" }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
        _ = Self.held.withLock { $0.removeValue(forKey: url) }
    }

    /// The directories not yet released, with the test that made each (`Locked`, which ThreadSanitizer follows).
    private static let held = Locked<[URL: String]>([:])
    /// Registers `removeHeld` to run at exit, once: a static's value is made on its first use, by one thread.
    private static let removesHeldAtExit: Void = { atexit { TemporaryDirectory.removeHeld() } }()

    private static func removeHeld() {
        for (url, test) in held.withLock({ $0 }).sorted(by: { $0.key.path < $1.key.path }) {
            try? FileManager.default.removeItem(at: url)
            let line = "removed \(url.lastPathComponent) at exit, held until then (made in test \(test))\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// A path inside the directory.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}

extension Date {
    /// An instant from ISO 8601 text with an offset, e.g. `2026-03-01T08:00:00Z`; traps on bad
    /// text, because a test's literal is a programmer's value.
    public init(iso text: String) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { preconditionFailure("not ISO 8601: \(text)") }
        self = date
    }
}

/// The directory that holds a test source file, for reading fixtures next to it.
public func directory(of filePath: String = #filePath) -> URL {
    URL(fileURLWithPath: filePath).deletingLastPathComponent()
}

/// The repository's root folder, for tests that read files under it.
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
