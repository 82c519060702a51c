import Domain
import Testing

@Suite("FNV-1a")
struct FNV1aTests {
    /// Test vectors from the FNV reference (http://www.isthe.com/chongo/tech/comp/fnv/).
    @Test(
        "matches the reference 64-bit FNV-1a values",
        arguments: [("", 0xcbf2_9ce4_8422_2325), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8)]
            as [(String, UInt64)])
    func vectors(text: String, expected: UInt64) {
        #expect(FNV1a.hash(text) == expected)
    }

    @Test("a word adds its eight bytes, least significant first")
    func words() {
        var byWord = FNV1a()
        byWord.add(0x0102_0304_0506_0708 as UInt64)
        var byBytes = FNV1a()
        byBytes.add([0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01] as [UInt8])
        #expect(byWord.value == byBytes.value)
    }
}
