import Foundation

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
        output +=
            "\(findings.count) \(noun) (\(breakdown)) in \(filesWithFindings) of \(swiftFiles) and "
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

    /// One compact JSON document (UTF-8, keys always in this order):
    /// `{"files", "propertyLists", "summary": {"critical", "high", "medium", "low", "total"},
    /// "rules": {"<id>": {"severity", "title", "why", "before", "after"}}, "findings": [{"file", "line", "column",
    /// "rule", "severity", "message"}], "skipped": [{"file", "reason"}]}`. A rule's why and before/after appear once,
    /// under `rules`, for the rules that have findings, most severe first.
    public func renderJSON() -> String {
        var json = JSONWriter()
        let counts = countsBySeverity
        let broken = Set(findings.map(\.ruleID))
        json.object { json in
            json.member("files", filesScanned)
            json.member("propertyLists", propertyListsRead)
            json.object("summary") { json in
                for severity in Severity.allCases {
                    json.member(severity.rawValue, counts[severity] ?? 0)
                }
                json.member("total", findings.count)
            }
            json.object("rules") { json in
                for rule in Rule.all where broken.contains(rule.id) {
                    json.object(rule.id) { json in
                        json.member("severity", rule.severity.rawValue)
                        json.member("title", rule.title)
                        json.member("why", rule.why)
                        json.member("before", rule.before)
                        json.member("after", rule.after)
                    }
                }
            }
            json.array("findings", objects: findings) { json, finding in
                json.member("file", finding.file)
                json.member("line", finding.line)
                json.member("column", finding.column)
                json.member("rule", finding.ruleID)
                json.member("severity", finding.severity.rawValue)
                json.member("message", finding.message)
            }
            json.array("skipped", objects: skipped) { json, file in
                json.member("file", file.file)
                json.member("reason", file.reason)
            }
        }
        json.bytes.append(ASCII.newline)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

/// Writes compact JSON straight into UTF-8 bytes, escaping per RFC 8259 (a report of thousands of findings is
/// several megabytes; appending to a `String` one scalar at a time was most of the audit's time).
struct JSONWriter {
    var bytes: [UInt8] = []
    /// Whether the next member or element is the first in its object or array.
    private var first = true

    /// `{…}`, or `"name":{…}` in an object, its members written by `body`.
    mutating func object(_ name: String? = nil, _ body: (inout JSONWriter) -> Void) {
        enclose(name, UInt8(ascii: "{"), UInt8(ascii: "}"), body)
    }

    /// `[…]`, or `"name":[…]` in an object, its elements written by `body`.
    mutating func array(_ name: String? = nil, _ body: (inout JSONWriter) -> Void) {
        enclose(name, UInt8(ascii: "["), UInt8(ascii: "]"), body)
    }

    /// `"name":[{…},…]` in an object: one object for each of `elements`, its members written by `body`.
    mutating func array<Elements: Sequence>(
        _ name: String, objects elements: Elements, _ body: (inout JSONWriter, Elements.Element) -> Void
    ) {
        array(name) { json in
            for element in elements {
                json.object { json in body(&json, element) }
            }
        }
    }

    private mutating func enclose(
        _ name: String?, _ open: UInt8, _ close: UInt8, _ body: (inout JSONWriter) -> Void
    ) {
        if let name { key(name) }
        separate()
        bytes.append(open)
        first = true
        body(&self)
        bytes.append(close)
        first = false
    }

    mutating func key(_ name: String) {
        separate()
        write(name)
        bytes.append(ASCII.colon)
        first = true
    }

    mutating func string(_ value: String) {
        separate()
        write(value)
    }

    /// `"name":"value"` in an object.
    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// `"name":value` in an object.
    mutating func member(_ name: String, _ value: Int) {
        key(name)
        number(value)
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func number(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func separate() {
        if !first { bytes.append(ASCII.comma) }
        first = false
    }

    private mutating func write(_ text: String) {
        bytes.append(ASCII.quote)
        for byte in text.utf8 {
            switch byte {
            case ASCII.quote, ASCII.backslash:
                bytes.append(ASCII.backslash)
                bytes.append(byte)
            case ASCII.newline:
                bytes.append(contentsOf: [ASCII.backslash, UInt8(ascii: "n")])
            case ASCII.carriageReturn:
                bytes.append(contentsOf: [ASCII.backslash, UInt8(ascii: "r")])
            case ASCII.tab:
                bytes.append(contentsOf: [ASCII.backslash, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [ASCII.backslash, UInt8(ascii: "u"), ASCII.zero, ASCII.zero])
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(ASCII.quote)
    }
}
