import HTMLReport
import PipelineKit
import TestSupport
import Testing

@Suite("Pseudonyms")
struct PseudonymsTests {
    static let ids = (1...200).map { UserID.literal("user-" + String(1000 + $0)) }

    @Test("a pseudonym is the same in every report: pinned, since reports made at different times are compared")
    func stable() {
        // Pinned when the scheme was written (computed independently: FNV-1a 64 of
        // "pipeline report pseudonym\0alice", SplitMix64's finalizer, the top 48 bits in hex, in a
        // few lines of Python); a change here renames every user of every earlier report.
        #expect(Pseudonyms.pseudonym(of: .literal("alice")) == "person-2a09a31a4b31")
        let names = Pseudonyms(users: Self.ids, redact: true)
        #expect(Self.ids.map(names.name(of:)) == Self.ids.map(Pseudonyms.pseudonym(of:)))
    }

    @Test("ids one character apart get unrelated pseudonyms, which keep neither the id nor its order")
    func unrelated() {
        let names = Self.ids.map(Pseudonyms.pseudonym(of:))
        #expect(Set(names).count == names.count)
        for (id, name) in zip(Self.ids, names) { #expect(!name.contains(id.rawValue.dropFirst(5))) }
        #expect(names.sorted() != names)
        // Adjacent ids' pseudonyms agree in about 12/16 = 0.75 of their 12 hex positions by chance.
        var same = 0
        for (a, b) in zip(names, names.dropFirst()) {
            same += zip(a.suffix(12), b.suffix(12)).filter { $0 == $1 }.count
        }
        #expect(Double(same) / Double(names.count - 1) < 2)
    }

    @Test("without --redact the id is the name")
    func plain() {
        #expect(Pseudonyms(users: Self.ids, redact: false).name(of: Self.ids[0]) == "user-1001")
    }
}
