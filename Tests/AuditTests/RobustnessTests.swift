import Audit
import Foundation
import Testing

/// Half-written code is what an editor holds most of the time: the audit must read it without trapping.
@Suite("Robustness")
struct RobustnessTests {
    /// SplitMix64, seeded, so that a failing input can be reproduced.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    static func corpus() -> [(path: String, text: String)] {
        FixtureCorpusTests.cases().flatMap { FixtureCorpusTests.files(of: $0.path) }
            .filter { $0.hasSuffix(".swift") }
            .compactMap { path in (try? String(contentsOfFile: path, encoding: .utf8)).map { (path, $0) } }
    }

    @Test("every fixture cut off at any of thirty points is audited without trapping")
    func truncated() {
        let sources = Self.corpus()
        #expect(sources.count > 100)
        for source in sources {
            let bytes = Array(source.text.utf8)
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 30)) {
                let text = String(decoding: bytes[..<cut], as: UTF8.self)
                _ = Auditor().audit(sources: [(path: source.path, text: text)]).renderJSON()
            }
        }
    }

    @Test("fixtures with brackets, quotes and comment markers sprinkled in are audited without trapping")
    func noisy() {
        var generator = SeededGenerator(state: 20_261_129)
        let noise = Array("{}()[]\"#/*\\\n`$.:=".utf8)
        let sources = Self.corpus()
        for source in sources {
            var bytes = Array(source.text.utf8)
            for _ in 0..<8 {
                let position = Int.random(in: 0...bytes.count, using: &generator)
                bytes.insert(noise.randomElement(using: &generator)!, at: position)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let report = Auditor().audit(sources: [(path: source.path, text: text)])
            // Audited, or named among the files left out (a test target's file).
            #expect(report.filesScanned + report.skipped.count == 1)
        }
    }

    @Test("the whole corpus audited as one project is stable from run to run")
    func wholeCorpus() {
        let sources = Self.corpus()
        let first = Auditor().audit(sources: sources).renderJSON()
        #expect(first == Auditor().audit(sources: sources).renderJSON())
    }
}
