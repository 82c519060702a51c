/// One place where the sources break a rule.
public struct Finding: Sendable, Hashable {
    public let rule: Rule
    /// The path as found while walking the given paths.
    public let file: String
    /// 1-based.
    public let line: Int
    /// 1-based, in Unicode scalars.
    public let column: Int
    /// What is wrong here, naming the identifier or function involved.
    public let message: String

    public var ruleID: String { rule.id }
    public var severity: Severity { rule.severity }
    public var why: String { rule.why }
    public var before: String { rule.before }
    public var after: String { rule.after }

    /// File, line, column, the more severe first, then rule id and message: the order reports list findings in,
    /// total so that a report is the same from run to run.
    static func precedes(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if (lhs.file, lhs.line, lhs.column) != (rhs.file, rhs.line, rhs.column) {
            return (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
        }
        return (rhs.severity.rank, lhs.rule.id, lhs.message) < (lhs.severity.rank, rhs.rule.id, rhs.message)
    }
}

extension Finding {
    init(rule: Rule, at location: SourceLocation, message: String) {
        self.init(rule: rule, file: location.file, line: location.line, column: location.column, message: message)
    }
}

/// A file that was found but could not be audited, and why.
public struct SkippedFile: Sendable, Hashable {
    public let file: String
    public let reason: String
}
