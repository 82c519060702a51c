/// The 64-bit FNV-1a hash: small, fast, stable across runs and machines (unlike `Hasher`, which is
/// seeded per process), for keys and fingerprints that are stored or must repeat.
/// http://www.isthe.com/chongo/tech/comp/fnv/
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { add(byte) }
    }

    /// The eight bytes of `word`, least significant first.
    public mutating func add(_ word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { add(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    /// The hash of a string's UTF-8 bytes.
    public static func hash(_ text: some StringProtocol) -> UInt64 {
        var hasher = FNV1a()
        hasher.add(text.utf8)
        return hasher.value
    }
}
