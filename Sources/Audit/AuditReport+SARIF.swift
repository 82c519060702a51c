/// SARIF 2.1.0 (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), the format GitHub code
/// scanning and other CI systems read.
extension AuditReport {
    /// The schema a SARIF consumer validates against; GitHub accepts this address.
    static let sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

    /// One SARIF log with one run: every rule in `Rule.all` (so a result's `ruleIndex` is stable from run to run),
    /// each finding as a result with its file, line and column (columns in Unicode code points, as the audit
    /// counts them), and each skipped file or folder as a tool notification naming why. Relative paths become
    /// relative URIs (`./` dropped), so a run from the repository root gives the paths code scanning expects;
    /// absolute paths become `file://` URIs. Ends with `"\n"`.
    public func renderSARIF(toolVersion: String? = nil) -> String {
        var json = JSONWriter()
        json.open("{")
        json.key("$schema")
        json.string(Self.sarifSchema)
        json.key("version")
        json.string("2.1.0")
        json.key("runs")
        json.open("[")
        json.open("{")
        json.key("tool")
        json.open("{")
        json.key("driver")
        json.open("{")
        json.key("name")
        json.string("pipeline audit")
        if let toolVersion {
            json.key("version")
            json.string(toolVersion)
        }
        json.key("rules")
        json.open("[")
        for rule in Rule.all { Self.writeSARIF(rule, into: &json) }
        json.close("]")
        json.close("}")
        json.close("}")
        json.key("columnKind")
        json.string("unicodeCodePoints")
        json.key("results")
        json.open("[")
        let ruleIndex = Dictionary(uniqueKeysWithValues: Rule.all.enumerated().map { ($1.id, $0) })
        for finding in findings {
            json.open("{")
            json.key("ruleId")
            json.string(finding.ruleID)
            json.key("ruleIndex")
            json.number(ruleIndex[finding.ruleID] ?? 0)
            json.key("level")
            json.string(Self.sarifLevel(finding.severity))
            json.key("message")
            json.open("{")
            json.key("text")
            json.string(finding.message)
            json.close("}")
            json.key("locations")
            json.open("[")
            json.open("{")
            Self.writeSARIFLocation(finding.file, line: finding.line, column: finding.column, into: &json)
            json.close("}")
            json.close("]")
            json.close("}")
        }
        json.close("]")
        json.key("invocations")
        json.open("[")
        json.open("{")
        json.key("executionSuccessful")
        json.bool(true)
        json.key("toolExecutionNotifications")
        json.open("[")
        for file in skipped {
            json.open("{")
            json.key("level")
            json.string("note")
            json.key("message")
            json.open("{")
            json.key("text")
            json.string("Not audited: \(file.reason)")
            json.close("}")
            json.key("locations")
            json.open("[")
            json.open("{")
            Self.writeSARIFLocation(file.file, line: nil, column: nil, into: &json)
            json.close("}")
            json.close("]")
            json.close("}")
        }
        json.close("]")
        json.close("}")
        json.close("]")
        json.close("}")
        json.close("]")
        json.close("}")
        json.bytes.append(ASCII.newline)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// Critical and high findings fail a CI check (`error`), medium ones warn, low ones are notes.
    static func sarifLevel(_ severity: Severity) -> String {
        switch severity {
        case .critical, .high: "error"
        case .medium: "warning"
        case .low: "note"
        }
    }

    private static func writeSARIF(_ rule: Rule, into json: inout JSONWriter) {
        json.open("{")
        json.key("id")
        json.string(rule.id)
        json.key("shortDescription")
        json.open("{")
        json.key("text")
        json.string(rule.title)
        json.close("}")
        json.key("fullDescription")
        json.open("{")
        json.key("text")
        json.string(rule.why)
        json.close("}")
        json.key("help")
        json.open("{")
        json.key("text")
        json.string("\(rule.why)\n\nBefore:\n\(rule.before)\n\nAfter:\n\(rule.after)")
        json.key("markdown")
        json.string("\(rule.why)\n\nBefore:\n```swift\n\(rule.before)\n```\n\nAfter:\n```swift\n\(rule.after)\n```")
        json.close("}")
        json.key("defaultConfiguration")
        json.open("{")
        json.key("level")
        json.string(sarifLevel(rule.severity))
        json.close("}")
        json.key("properties")
        json.open("{")
        json.key("severity")
        json.string(rule.severity.rawValue)
        json.key("tags")
        json.open("[")
        json.string("background-execution")
        json.string(rule.severity.rawValue)
        json.close("]")
        json.close("}")
        json.close("}")
    }

    private static func writeSARIFLocation(_ path: String, line: Int?, column: Int?, into json: inout JSONWriter) {
        json.key("physicalLocation")
        json.open("{")
        json.key("artifactLocation")
        json.open("{")
        json.key("uri")
        json.string(sarifURI(path))
        json.close("}")
        if let line {
            json.key("region")
            json.open("{")
            json.key("startLine")
            json.number(max(line, 1))
            if let column {
                json.key("startColumn")
                json.number(max(column, 1))
            }
            json.close("}")
        }
        json.close("}")
    }

    /// A path as a URI reference (RFC 3986): `./` dropped, each byte outside the unreserved set and `/` escaped as
    /// `%XX`; an absolute path as a `file://` URI.
    static func sarifURI(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in trimmed.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        let encoded = String(decoding: bytes, as: UTF8.self)
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
