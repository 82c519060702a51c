import Testing

@testable import PipelineCLI

@Suite("Suggesting the closest name")
struct SuggestionTests {
    @Test(
        "edit distance counts insertions, deletions, substitutions and adjacent swaps as one each",
        arguments: [
            ("status", "status", 0), ("stauts", "status", 1), ("usr", "user", 1), ("users", "user", 1),
            ("jsno", "json", 1), ("retrian", "retrain", 1), ("", "db", 2), ("kitten", "sitting", 3),
        ])
    func editDistance(lhs: String, rhs: String, expected: Int) {
        #expect(Suggestion.editDistance(lhs, rhs) == expected)
        #expect(Suggestion.editDistance(rhs, lhs) == expected)
    }

    @Test("the nearest candidate within two edits is suggested; nothing when all are far")
    func closest() {
        let commands = ["ingest", "export", "status", "retrain", "history"]
        #expect(Suggestion.closest(to: "stauts", among: commands) == "status")
        #expect(Suggestion.closest(to: "exprot", among: commands) == "export")
        #expect(Suggestion.closest(to: "deploy", among: commands) == nil)
    }

    @Test("a short name is not suggested for a guess that shares nothing with it")
    func shortCandidates() {
        #expect(Suggestion.closest(to: "x", among: ["db"]) == nil)
        #expect(Suggestion.closest(to: "d", among: ["db"]) == "db")
    }
}
