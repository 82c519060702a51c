import Domain

/// The result of one audit: every finding, ordered by file, line and column, and what was read.
public struct AuditReport: Sendable {
    public let findings: [Finding]
    /// Swift files audited.
    public let filesScanned: Int
    /// `Info.plist` files read for `BGTaskSchedulerPermittedIdentifiers`.
    public let propertyListsRead: Int
    /// Files found but not audited (not UTF-8, unreadable), in path order.
    public let skipped: [SkippedFile]

    public init(findings: [Finding], filesScanned: Int, propertyListsRead: Int, skipped: [SkippedFile]) {
        self.findings = findings.sorted(by: Finding.precedes)
        self.filesScanned = filesScanned
        self.propertyListsRead = propertyListsRead
        self.skipped = skipped
    }

    /// Whether any finding is at least as severe as `threshold`; a CLI exits 1 when this holds for `--fail-on`.
    public func hasFindings(atOrAbove threshold: Severity) -> Bool {
        findings.contains { $0.severity >= threshold }
    }

    /// Number of findings of each severity.
    public var countsBySeverity: [Severity: Int] {
        var counts: [Severity: Int] = [:]
        for severity in Severity.allCases { counts[severity] = 0 }
        for finding in findings { counts[finding.severity, default: 0] += 1 }
        return counts
    }

    // MARK: Text

    /// The human report: for each file with findings, each finding with its line, rule, message, why and a
    /// before/after (why and before/after once per rule and file); then the rules broken, most urgent first.
    public func renderText() -> String {
        var output = ""
        var currentFile: String?
        var explained: Set<String> = []
        for finding in findings {
            if finding.file != currentFile {
                if currentFile != nil { output += "\n" }
                output += "\(finding.file)\n"
                currentFile = finding.file
                explained = []
            }
            output += "  \(finding.line):\(finding.column)  \(finding.severity)  \(finding.ruleID)\n"
            output += Self.wrap(finding.message, indent: 6)
            if explained.insert(finding.ruleID).inserted {
                output += Self.wrap("why: " + finding.why, indent: 6)
                output += "      before:\n" + Self.indent(finding.before, by: 10)
                output += "      after:\n" + Self.indent(finding.after, by: 10)
            } else {
                output += "      (why and fix: see \(finding.ruleID) above)\n"
            }
        }
        if !findings.isEmpty { output += "\n" }
        output += summaryText()
        if !skipped.isEmpty {
            output += "Skipped:\n"
            for file in skipped { output += "  \(file.file): \(file.reason)\n" }
        }
        return output
    }

    private func summaryText() -> String {
        let plists = propertyListsRead == 1 ? "1 Info.plist" : "\(propertyListsRead) Info.plist files"
        let swiftFiles = filesScanned == 1 ? "1 Swift file" : "\(filesScanned) Swift files"
        guard !findings.isEmpty else {
            return "No background-execution findings in \(swiftFiles) (\(plists) read).\n"
        }
        var counts: [String: Int] = [:]
        for finding in findings { counts[finding.ruleID, default: 0] += 1 }
        let rules = Rule.all.filter { counts[$0.id] != nil }.sorted {
            ($0.severity.rank, counts[$0.id]!, $1.id) > ($1.severity.rank, counts[$1.id]!, $0.id)
        }
        let idWidth = rules.map(\.id.count).max() ?? 0
        var output = "Summary, most urgent first:\n"
        for rule in rules {
            let severity = rule.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            let id = rule.id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
            output += "  \(severity)  \(id)  \(counts[rule.id]!)  \(rule.title)\n"
        }
        let bySeverity = countsBySeverity
        let breakdown = Severity.allCases.map { "\(bySeverity[$0] ?? 0) \($0)" }.joined(separator: ", ")
        let filesWithFindings = Set(findings.map(\.file)).count
        let noun = findings.count == 1 ? "finding" : "findings"
        output += "\(findings.count) \(noun) (\(breakdown)) in \(filesWithFindings) of \(swiftFiles) and "
            + "\(plists).\n"
        return output
    }

    /// Words of `text` in lines of at most 110 columns (a longer word, such as a URL, gets a line of its own).
    private static func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var output = ""
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty, pad.count + line.count + 1 + word.count > 110 {
                output += pad + line + "\n"
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { output += pad + line + "\n" }
        return output
    }

    private static func indent(_ text: String, by width: Int) -> String {
        let pad = String(repeating: " ", count: width)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }.joined(separator: "\n")
            + "\n"
    }

    // MARK: JSON

    /// One compact JSON document with keys in a fixed order:
    /// `{"files", "propertyLists", "summary": {"critical", "high", "medium", "low", "total"}, "findings": [{"file",
    /// "line", "column", "rule", "severity", "message", "why", "before", "after"}], "skipped": [{"file", "reason"}]}`.
    public func renderJSON() -> String {
        let counts = countsBySeverity
        var summary = JSONObject()
        for severity in Severity.allCases { summary[severity.rawValue] = .number(Double(counts[severity] ?? 0)) }
        summary["total"] = .number(Double(findings.count))
        var document = JSONObject()
        document["files"] = .number(Double(filesScanned))
        document["propertyLists"] = .number(Double(propertyListsRead))
        document["summary"] = .object(summary)
        document["findings"] = .array(findings.map { finding in
            var object = JSONObject()
            object["file"] = .string(finding.file)
            object["line"] = .number(Double(finding.line))
            object["column"] = .number(Double(finding.column))
            object["rule"] = .string(finding.ruleID)
            object["severity"] = .string(finding.severity.rawValue)
            object["message"] = .string(finding.message)
            object["why"] = .string(finding.why)
            object["before"] = .string(finding.before)
            object["after"] = .string(finding.after)
            return .object(object)
        })
        document["skipped"] = .array(skipped.map { .object(["file": .string($0.file), "reason": .string($0.reason)]) })
        return document.jsonText + "\n"
    }
}
