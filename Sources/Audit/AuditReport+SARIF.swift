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
        let ruleIndex = Dictionary(uniqueKeysWithValues: Rule.all.enumerated().map { ($1.id, $0) })
        json.object { json in
            json.member("$schema", Self.sarifSchema)
            json.member("version", "2.1.0")
            json.array("runs") { json in
                json.object { json in
                    json.object("tool") { json in
                        json.object("driver") { json in
                            json.member("name", "pipeline audit")
                            if let toolVersion { json.member("version", toolVersion) }
                            json.array("rules") { json in
                                for rule in Rule.all { Self.writeSARIF(rule, into: &json) }
                            }
                        }
                    }
                    json.member("columnKind", "unicodeCodePoints")
                    json.array("results", objects: findings) { json, finding in
                        json.member("ruleId", finding.ruleID)
                        json.member("ruleIndex", ruleIndex[finding.ruleID] ?? 0)
                        json.member("level", Self.sarifLevel(finding.severity))
                        Self.writeSARIF(
                            finding.message, at: finding.file, line: finding.line, column: finding.column, into: &json)
                    }
                    json.array("invocations") { json in
                        json.object { json in
                            json.key("executionSuccessful")
                            json.bool(true)
                            json.array("toolExecutionNotifications", objects: skipped) { json, file in
                                json.member("level", "note")
                                Self.writeSARIF(
                                    "Not audited: \(file.reason)", at: file.file, line: nil, column: nil, into: &json)
                            }
                        }
                    }
                }
            }
        }
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
        json.object { json in
            json.member("id", rule.id)
            json.object("shortDescription") { json in json.member("text", rule.title) }
            json.object("fullDescription") { json in json.member("text", rule.why) }
            json.object("help") { json in
                json.member("text", "\(rule.why)\n\nBefore:\n\(rule.before)\n\nAfter:\n\(rule.after)")
                json.member(
                    "markdown",
                    "\(rule.why)\n\nBefore:\n```swift\n\(rule.before)\n```\n\nAfter:\n```swift\n\(rule.after)\n```")
            }
            json.object("defaultConfiguration") { json in json.member("level", sarifLevel(rule.severity)) }
            json.object("properties") { json in
                json.member("severity", rule.severity.rawValue)
                json.array("tags") { json in
                    json.string("background-execution")
                    json.string(rule.severity.rawValue)
                }
            }
        }
    }

    /// A result's or a notification's `message` and its one location: `path`, and `line` and `column` when known.
    private static func writeSARIF(
        _ message: String, at path: String, line: Int?, column: Int?, into json: inout JSONWriter
    ) {
        json.object("message") { json in json.member("text", message) }
        json.array("locations") { json in
            json.object { json in
                json.object("physicalLocation") { json in
                    json.object("artifactLocation") { json in json.member("uri", sarifURI(path)) }
                    if let line {
                        json.object("region") { json in
                            json.member("startLine", max(line, 1))
                            if let column { json.member("startColumn", max(column, 1)) }
                        }
                    }
                }
            }
        }
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
