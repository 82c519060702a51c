import Audit
import Foundation
import TestSupport
import Testing

/// `--format sarif` against the official SARIF 2.1.0 schema (Tests/AuditTests/SARIF, see its NOTICE.md).
@Suite("SARIF output")
struct SARIFTests {
    static let schemaPath = directory().appendingPathComponent("SARIF/sarif-schema-2.1.0.json").path

    static func validator() throws -> JSONSchemaValidator {
        let data = try #require(FileManager.default.contents(atPath: schemaPath), "the schema is in the repository")
        return try JSONSchemaValidator(schema: data)
    }

    /// A report with findings of every severity, a skipped file and a path that needs escaping.
    static func report() -> AuditReport {
        let source = """
            import BackgroundTasks
            import SwiftUI

            struct ContentView: View {
                var body: some View {
                    Text("x").onAppear {
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
                            task.setTaskCompleted(success: true)
                            task.setTaskCompleted(success: true)
                        }
                    }
                }
            }
            """
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>BGTaskSchedulerPermittedIdentifiers</key>
            <array><string>com.example.stale</string></array></dict></plist>
            """
        return Auditor().audit(
            sources: [(path: "./My App/Content View#1.swift", text: source)],
            propertyLists: [
                (path: "My App/Info.plist", text: plist), (path: "Broken/Info.plist", text: "bplist00 cut short"),
            ])
    }

    @Test("the SARIF report is valid against the SARIF 2.1.0 schema")
    func validAgainstSchema() throws {
        let report = Self.report()
        #expect(Set(report.findings.map(\.severity)) == [.critical, .high, .medium, .low])
        #expect(report.skipped.map(\.file) == ["Broken/Info.plist"])
        let errors = try Self.validator().errors(in: Data(report.renderSARIF(toolVersion: "0.1.0").utf8))
        #expect(errors.isEmpty, "\(errors.prefix(10))")
        let empty = Auditor().audit(sources: [(path: "Clean.swift", text: "let x = 1\n")])
        #expect(try Self.validator().errors(in: Data(empty.renderSARIF().utf8)).isEmpty)
    }

    @Test("the schema check rejects a log that breaks the schema")
    func validatorRejects() throws {
        let validator = try Self.validator()
        let sarif = Self.report().renderSARIF()
        let broken = [
            sarif.replacingOccurrences(of: "\"version\":\"2.1.0\"", with: "\"version\":\"2.0\""),
            sarif.replacingOccurrences(of: "\"level\":\"warning\"", with: "\"level\":\"severe\""),
            sarif.replacingOccurrences(of: "\"startLine\":", with: "\"startLine\":-"),
            sarif.replacingOccurrences(of: "\"executionSuccessful\":true", with: "\"executionSuccessful\":1"),
            sarif.replacingOccurrences(of: "\"ruleId\":", with: "\"rule\":"),
        ]
        for document in broken {
            #expect(document != sarif)
            #expect(!(try validator.errors(in: Data(document.utf8))).isEmpty)
        }
    }

    @Test("results carry rule, level, message and location; skipped files are notifications")
    func content() throws {
        let report = Self.report()
        let data = Data(report.renderSARIF().utf8)
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == Rule.all.map(\.id))
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == report.findings.count)
        for (result, finding) in zip(results, report.findings) {
            #expect(result["ruleId"] as? String == finding.ruleID)
            #expect(rules[result["ruleIndex"] as? Int ?? -1]["id"] as? String == finding.ruleID)
            let level = result["level"] as? String
            #expect(level == [.critical: "error", .high: "error", .medium: "warning", .low: "note"][finding.severity])
            #expect((result["message"] as? [String: Any])?["text"] as? String == finding.message)
            let physical = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            let uri = (physical?["artifactLocation"] as? [String: Any])?["uri"] as? String
            let region = physical?["region"] as? [String: Any]
            #expect(region?["startLine"] as? Int == finding.line)
            #expect(region?["startColumn"] as? Int == finding.column)
            if finding.file.hasSuffix(".swift") {
                #expect(uri == "My%20App/Content%20View%231.swift")
            } else {
                #expect(uri == "My%20App/Info.plist")
            }
        }
        let notifications = try #require(
            (run["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notifications.count == 1)
        let text = (notifications.first?["message"] as? [String: Any])?["text"] as? String ?? ""
        #expect(text.hasPrefix("Not audited: not a readable property list"))
    }
}
