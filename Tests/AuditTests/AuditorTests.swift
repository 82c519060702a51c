import Foundation
import TestSupport
import Testing

@testable import Audit

@Suite("Auditor")
struct AuditorTests {
    /// A handler registered in `.onAppear` (critical), never submitted (high), not rescheduling (medium).
    static let viewSource = """
        import BackgroundTasks
        import SwiftUI

        struct ContentView: View {
            var body: some View {
                Text("x").onAppear {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                        task.expirationHandler = { Refresh.cancel() }
                        Refresh.next()
                        task.setTaskCompleted(success: true)
                    }
                }
            }
        }

        enum Refresh {
            static func next() {
                let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
                _ = request // try? BGTaskScheduler.shared.submit(request)
                Log.note()
            }
        }
        """

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("a path that does not exist is an error naming it")
    func missingPath() {
        let directory = TemporaryDirectory()
        let missing = directory.path("nowhere/App")
        #expect(throws: AuditError.pathNotFound(missing)) { try Auditor().audit(paths: [missing]) }
        #expect(AuditError.pathNotFound(missing).description.contains(missing))
    }

    @Test("a named path that is not a regular file is an error naming it")
    func specialFile() throws {
        let directory = TemporaryDirectory()
        let pipe = directory.path("Pipe.swift")
        try #require(mkfifo(pipe, 0o600) == 0)
        #expect(throws: AuditError.unreadable(path: pipe, reason: "not a regular file")) {
            try Auditor().audit(paths: [pipe])
        }
        // Found while walking, it is passed over rather than opened.
        #expect(try Auditor().audit(paths: [directory.url.path]).filesScanned == 0)
    }

    @Test("no paths is an error")
    func noPaths() {
        #expect(throws: AuditError.noPaths) { try Auditor().audit(paths: []) }
    }

    @Test("a file that is not UTF-8 is listed as skipped and the others are audited")
    func notUTF8() throws {
        let directory = TemporaryDirectory()
        try Self.write(Self.viewSource, to: directory.path("App/ContentView.swift"))
        try Data([0x6C, 0x65, 0x74, 0x20, 0xFF, 0xFE, 0x0A]).write(
            to: URL(fileURLWithPath: directory.path("App/Bad.swift")))
        let report = try Auditor().audit(paths: [directory.url.path])
        #expect(report.filesScanned == 1)
        #expect(report.skipped == [SkippedFile(file: directory.path("App/Bad.swift"), reason: "not valid UTF-8")])
        #expect(report.findings.contains { $0.ruleID == "register-outside-launch" })
        #expect(report.renderText().contains("Bad.swift: not valid UTF-8"))
    }

    @Test("a test target's file is listed as test code, and what only it does is not done for the app")
    func testCode() throws {
        let directory = TemporaryDirectory()
        try Self.write(
            """
            import BackgroundTasks

            enum Refresh {
                static func register() {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                        task.expirationHandler = { Feed.cancel() }
                        Feed.reload { task.setTaskCompleted(success: $0) }
                    }
                }
            }
            """, to: directory.path("App/Refresh.swift"))
        try Self.write(
            """
            @testable import App
            import XCTest

            final class RefreshTests: XCTestCase {
                func testSubmits() throws {
                    try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
                }
            }
            """, to: directory.path("AppTests/RefreshTests.swift"))
        let report = try Auditor().audit(paths: [directory.url.path])
        #expect(report.filesScanned == 1)
        #expect(
            report.skipped == [
                SkippedFile(
                    file: directory.path("AppTests/RefreshTests.swift"), reason: "test code (imports @testable App)")
            ])
        // The app itself never submits the identifier: only the test does.
        #expect(report.findings.map(\.ruleID).contains("registered-never-submitted"))
        #expect(report.renderText().contains("RefreshTests.swift: test code"))
    }

    @Test("hidden directories and dependency folders are not walked, named files are")
    func walking() throws {
        let directory = TemporaryDirectory()
        try Self.write(Self.viewSource, to: directory.path(".build/checkouts/Dep/View.swift"))
        try Self.write(Self.viewSource, to: directory.path("Pods/SDK/View.swift"))
        try Self.write("let x = 1\n", to: directory.path("Sources/Clean.swift"))
        try Self.write("notes\n", to: directory.path("README.md"))
        let tree = try Auditor().audit(paths: [directory.url.path])
        #expect(tree.filesScanned == 1)
        #expect(tree.findings.isEmpty)
        // The report names the dependency folder it left out, and why; hidden folders (.build) are not listed.
        #expect(tree.skipped.map(\.file) == [directory.path("Pods") + "/"])
        #expect(tree.skipped.first?.reason.contains("CocoaPods") == true)
        let named = try Auditor().audit(paths: [directory.path("Pods/SDK/View.swift"), directory.path("README.md")])
        #expect(named.filesScanned == 1)
        #expect(!named.findings.isEmpty)
        #expect(named.skipped.map(\.file) == [directory.path("README.md")])
    }

    @Test("the failure threshold compares severities")
    func threshold() {
        let report = Auditor().audit(sources: [(path: "ContentView.swift", text: Self.viewSource)])
        #expect(Set(report.findings.map(\.severity)) == [.critical, .high, .medium])
        #expect(report.hasFindings(atOrAbove: .critical))
        #expect(report.hasFindings(atOrAbove: .low))
        let clean = Auditor().audit(sources: [(path: "Clean.swift", text: "let x = 1\n")])
        #expect(!clean.hasFindings(atOrAbove: .low))
        #expect(Severity(argument: "HIGH") == .high)
        #expect(Severity(argument: "urgent") == nil)
        #expect(Severity.critical > .high && Severity.medium > .low)
    }

    @Test("the text report lists each file's findings with why and fix once, then a summary by priority")
    func textReport() {
        let report = Auditor().audit(sources: [(path: "App/ContentView.swift", text: Self.viewSource)])
        let text = report.renderText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "App/ContentView.swift")
        #expect(lines.dropFirst().first == "  7:36  critical  register-outside-launch")
        #expect(lines.contains("  7:36  high  registered-never-submitted"))
        #expect(lines.contains("  7:36  medium  handler-not-rescheduling"))
        #expect(text.components(separatedBy: "before:").count == 4, "before/after once per rule")
        let summary = lines.drop { !$0.hasPrefix("Summary") }
        #expect(summary.dropFirst().first?.hasPrefix("  critical  register-outside-launch") == true)
        #expect(summary.dropFirst(2).first?.hasPrefix("  high      registered-never-submitted") == true)
        #expect(summary.dropFirst(3).first?.hasPrefix("  medium    handler-not-rescheduling") == true)
        #expect(text.contains("3 findings (1 critical, 1 high, 1 medium, 0 low) in 1 of 1 Swift file"))
    }

    @Test("a clean tree says so")
    func cleanText() {
        let report = Auditor().audit(sources: [(path: "Clean.swift", text: "let x = 1\n")])
        #expect(report.renderText() == "No background-execution findings in 1 Swift file (0 Info.plist files read).\n")
    }

    @Test("the JSON report is one document with a fixed key order and each rule's texts once")
    func jsonReport() throws {
        let report = Auditor().audit(sources: [(path: "App/ContentView.swift", text: Self.viewSource)])
        let json = report.renderJSON()
        #expect(
            json.hasPrefix(
                #"{"files":1,"propertyLists":0,"summary":{"critical":1,"high":1,"medium":1,"low":0,"#
                    + #""total":3},"rules":{"register-outside-launch":{"severity":"critical","title":"task handler registered "#
                    + #"after launch","why":"Apple: \"Registration of all launch handlers"#))
        #expect(json.hasSuffix("\"skipped\":[]}\n"))
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rules = try #require(object["rules"] as? [String: [String: String]])
        #expect(
            Set(rules.keys) == ["register-outside-launch", "registered-never-submitted", "handler-not-rescheduling"])
        #expect(rules["handler-not-rescheduling"]?["before"] == Rule.handlerNotRescheduling.before)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(
            findings.map { $0["rule"] as? String } == [
                "register-outside-launch", "registered-never-submitted", "handler-not-rescheduling",
            ])
        #expect(findings[0]["message"] as? String == report.findings[0].message)
        #expect(Set(findings[0].keys) == ["file", "line", "column", "rule", "severity", "message"])
        #expect(json == report.renderJSON(), "rendering twice gives the same bytes")
    }

    @Test("JSON escapes quotes, backslashes and control characters")
    func jsonEscaping() throws {
        let report = AuditReport(
            findings: [], filesScanned: 0, propertyListsRead: 0,
            skipped: [SkippedFile(file: "dir/\"odd\"\\name\t.swift", reason: "line\nbreak \u{1}")])
        let object = try #require(JSONSerialization.jsonObject(with: Data(report.renderJSON().utf8)) as? [String: Any])
        let skipped = try #require(object["skipped"] as? [[String: String]])
        #expect(skipped == [["file": "dir/\"odd\"\\name\t.swift", "reason": "line\nbreak \u{1}"]])
    }

    @Test("every rule has a kebab-case id, a cited why and a before/after")
    func ruleCatalogue() {
        #expect(Set(Rule.all.map(\.id)).count == Rule.all.count)
        for rule in Rule.all {
            #expect(rule.id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(rule.id)")
            #expect(rule.why.contains("https://"), "\(rule.id) cites its source")
            #expect(!rule.before.isEmpty && !rule.after.isEmpty && rule.before != rule.after, "\(rule.id)")
            #expect(Rule.named(rule.id) == rule)
        }
        #expect(Rule.all.map(\.severity) == Rule.all.map(\.severity).sorted(by: >), "most severe first")
    }

    @Test("findings from Info.plist files point at the plist line")
    func plistFinding() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>BGTaskSchedulerPermittedIdentifiers</key>
                <array>
                    <string>com.example.gone</string>
                </array>
            </dict>
            </plist>
            """
        let report = Auditor().audit(
            sources: [(path: "A.swift", text: "let a = 1\n")],
            propertyLists: [(path: "App/Info.plist", text: plist)])
        #expect(
            report.findings.map { "\($0.file):\($0.line) \($0.ruleID)" } == [
                "App/Info.plist:6 permitted-never-registered"
            ])
        #expect(report.propertyListsRead == 1)
    }

    @Test("a property list that is not XML is skipped with its reason")
    func badPlist() {
        let report = Auditor().audit(sources: [], propertyLists: [(path: "Info.plist", text: "not <xml")])
        #expect(report.skipped.map(\.file) == ["Info.plist"])
        #expect(report.findings.isEmpty)
    }
}
