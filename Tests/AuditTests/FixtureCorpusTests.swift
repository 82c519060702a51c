import Audit
import Foundation
import TestSupport
import Testing

/// The fixture corpus: `Fixtures/<rule-id>/bad-*` and `good-*`, each a Swift file or a directory (several files,
/// perhaps an Info.plist) audited on its own. A fixture declares what the audit must report with a marker on the
/// offending line: `// expect: rule-id` in Swift, `<!-- expect: rule-id -->` in a plist; several ids are separated
/// by commas. Anything reported without a marker is a false positive; a marker without a report is a miss.
@Suite("Fixture corpus")
struct FixtureCorpusTests {
    struct Case: CustomStringConvertible {
        var rule: String
        var name: String
        var path: String
        var isBad: Bool { name.hasPrefix("bad-") }
        var description: String { "\(rule)/\(name)" }
    }

    /// A finding the audit must report, or did report: file, line and rule.
    struct Mark: Hashable, Comparable, CustomStringConvertible {
        var file: String
        var line: Int
        var rule: String
        var description: String { "\(file):\(line) \(rule)" }
        static func < (lhs: Mark, rhs: Mark) -> Bool { (lhs.file, lhs.line, lhs.rule) < (rhs.file, rhs.line, rhs.rule) }
    }

    static let root = directory().appendingPathComponent("Fixtures").path

    static func cases() -> [Case] {
        let manager = FileManager.default
        let rules = (try? manager.contentsOfDirectory(atPath: root)) ?? []
        return rules.sorted().flatMap { rule in
            let names = (try? manager.contentsOfDirectory(atPath: root + "/" + rule)) ?? []
            return names.sorted().filter { $0.hasPrefix("bad-") || $0.hasPrefix("good-") }.map {
                Case(rule: rule, name: $0, path: root + "/" + rule + "/" + $0)
            }
        }
    }

    /// Every file of a case, with paths spelled the way the audit's walk spells them; a symbolic link to a file the
    /// case holds is read where it leads, not a second time where it stands.
    static func files(of path: String) -> [String] {
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil { return [] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().flatMap { files(of: path + "/" + $0) }
    }

    static func expectations(of fixture: Case) -> Set<Mark> {
        var marks: Set<Mark> = []
        for file in files(of: fixture.path) {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let marker = line.range(of: "expect: ") else { continue }
                var ids = String(line[marker.upperBound...])
                if let end = ids.range(of: "-->") { ids = String(ids[..<end.lowerBound]) }
                for id in ids.split(separator: ",") {
                    marks.insert(Mark(file: file, line: offset + 1, rule: id.trimmingCharacters(in: .whitespaces)))
                }
            }
        }
        return marks
    }

    static func reported(by fixture: Case) throws -> (marks: Set<Mark>, messages: [Mark: String]) {
        let report = try Auditor().audit(paths: [fixture.path])
        var messages: [Mark: String] = [:]
        for finding in report.findings {
            messages[Mark(file: finding.file, line: finding.line, rule: finding.ruleID)] = finding.message
        }
        return (Set(messages.keys), messages)
    }

    @Test("every rule has at least three bad and three good fixtures")
    func corpusCoversEveryRule() {
        let cases = Self.cases()
        for rule in Rule.all {
            let mine = cases.filter { $0.rule == rule.id }
            #expect(mine.filter(\.isBad).count >= 3, "\(rule.id) needs three bad fixtures")
            #expect(mine.filter { !$0.isBad }.count >= 3, "\(rule.id) needs three good fixtures")
        }
        #expect(Set(cases.map(\.rule)).isSubset(of: Set(Rule.all.map(\.id))), "a fixture directory names no rule")
    }

    @Test("a bad fixture expects its rule and a good one does not")
    func fixturesDeclareTheirRule() {
        for fixture in Self.cases() {
            let rules = Set(Self.expectations(of: fixture).map(\.rule))
            if fixture.isBad {
                #expect(rules.contains(fixture.rule), "\(fixture) has no `expect: \(fixture.rule)` marker")
            } else {
                #expect(!rules.contains(fixture.rule), "\(fixture) expects the rule it shows done right")
            }
            #expect(rules.isSubset(of: Set(Rule.all.map(\.id))), "\(fixture) expects an unknown rule")
        }
    }

    @Test("the audit reports exactly the marked findings across the corpus")
    func precisionAndRecall() throws {
        var truePositives: [String: Int] = [:]
        var falsePositives: [String: Int] = [:]
        var misses: [String: Int] = [:]
        var problems: [String] = []
        for fixture in Self.cases() {
            let expected = Self.expectations(of: fixture)
            let (actual, messages) = try Self.reported(by: fixture)
            for mark in expected.intersection(actual) { truePositives[mark.rule, default: 0] += 1 }
            for mark in actual.subtracting(expected).sorted() {
                falsePositives[mark.rule, default: 0] += 1
                problems.append(
                    "unexpected \(mark.description.dropFirst(Self.root.count + 1)): \(messages[mark] ?? "")")
            }
            for mark in expected.subtracting(actual).sorted() {
                misses[mark.rule, default: 0] += 1
                problems.append("missed \(mark.description.dropFirst(Self.root.count + 1))")
            }
        }
        print(Self.table(truePositives: truePositives, falsePositives: falsePositives, misses: misses))
        for problem in problems { print(problem) }
        #expect(falsePositives.values.reduce(0, +) == 0, "false positives: \(falsePositives)")
        #expect(misses.values.reduce(0, +) == 0, "missed findings: \(misses)")
    }

    static func table(truePositives: [String: Int], falsePositives: [String: Int], misses: [String: Int]) -> String {
        func ratio(_ numerator: Int, _ denominator: Int) -> String {
            denominator == 0 ? "  -  " : String(format: "%.3f", Double(numerator) / Double(denominator))
        }
        let width = Rule.all.map(\.id.count).max() ?? 0
        var lines = ["rule".padding(toLength: width, withPad: " ", startingAt: 0) + "   tp  fp  fn  precision  recall"]
        var totals = (0, 0, 0)
        for rule in Rule.all {
            let (tp, fp, fn) = (truePositives[rule.id] ?? 0, falsePositives[rule.id] ?? 0, misses[rule.id] ?? 0)
            totals = (totals.0 + tp, totals.1 + fp, totals.2 + fn)
            lines.append(
                rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
                    + String(format: " %4d %3d %3d", tp, fp, fn) + "      \(ratio(tp, tp + fp))   \(ratio(tp, tp + fn))"
            )
        }
        lines.append(
            "all".padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: " %4d %3d %3d", totals.0, totals.1, totals.2)
                + "      \(ratio(totals.0, totals.0 + totals.1))   \(ratio(totals.0, totals.0 + totals.2))")
        return lines.joined(separator: "\n")
    }
}
