import Testing

@testable import PipelineCLI

@Suite("Tables of text")
struct TextTableTests {
    @Test("a header, then columns aligned: text left, numbers right, the last column as long as it is")
    func aligned() {
        let out = OutputWriter.memory()
        let table = TextTable([.init("id", .right), .init("task"), .init("reason")], writer: out)
        table.add(["7", "ml-retrain", "serving: a combination"])
        table.add(["12", "health-refresh", "applied 3 watch items"])
        table.finish()
        #expect(
            out.text == """
                id  task            reason
                 7  ml-retrain      serving: a combination
                12  health-refresh  applied 3 watch items

                """)
    }

    @Test("rows after the sample keep its widths; an empty table prints nothing")
    func streams() {
        let out = OutputWriter.memory()
        let table = TextTable([.init("n", .right), .init("word")], writer: out, sample: 1)
        table.add(["1", "a"])
        #expect(out.text == "n  word\n1  a\n")
        table.add(["100", "b"])
        table.finish()
        #expect(out.text == "n  word\n1  a\n100  b\n")
        let empty = OutputWriter.memory()
        TextTable([.init("n")], writer: empty).finish()
        #expect(empty.text.isEmpty)
    }
}
