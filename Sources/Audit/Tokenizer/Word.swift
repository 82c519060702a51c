/// The identifiers the structural pass and the rules look at, recognised once by the tokenizer so that
/// later passes compare one byte instead of spelling.
///
/// Keywords that Swift only reserves in some positions (`get`, `async`, `actor`) are here too; whether one
/// acts as a keyword is decided where it is used.
enum Word: String, CaseIterable, Sendable {
    case none = ""

    // Declarations.
    case `func`, `init`, `deinit`, `subscript`, `class`, `struct`, `enum`, `extension`, `protocol`, actor
    case `var`, `let`, `static`, `typealias`, `import`, `operator`, lazy, macro

    // Statements.
    case `if`, `guard`, `else`, `for`, `while`, `repeat`, `switch`, `case`, `default`, `do`, `catch`, `defer`
    case `return`, `throw`, `try`, `break`, `continue`, `fallthrough`, `in`, `where`

    // Accessors.
    case get, set, willSet, didSet

    // Expressions.
    case `as`, `is`, await, async, `throws`, `rethrows`, `self`, selfType = "Self", `super`, `nil`, `true`, `false`
    case some, any, `inout`

    /// Words that introduce a declaration or a statement; an identifier token with one of these words is not
    /// the name of a called function.
    var isReserved: Bool {
        switch self {
        case .none, .get, .set, .willSet, .didSet, .async, .await, .actor, .lazy, .macro, .some, .any, .`init`,
            .`self`, .selfType, .`super`:
            false
        default:
            true
        }
    }
}

/// An open-addressing table from an identifier's bytes to its `Word`, built once.
///
/// A `Dictionary<String, Word>` would allocate a `String` per identifier; hashing the bytes in place keeps the
/// tokenizer allocation-free.
struct WordTable: Sendable {
    private static let slotCount = 256
    private var hashes: [UInt64]
    private var words: [Word]
    private var spellings: [[UInt8]]

    static let shared = WordTable()

    private init() {
        hashes = Array(repeating: 0, count: Self.slotCount)
        words = Array(repeating: .none, count: Self.slotCount)
        spellings = Array(repeating: [], count: Self.slotCount)
        for word in Word.allCases where word != .none {
            let bytes = Array(word.rawValue.utf8)
            let hash = bytes.withUnsafeBufferPointer { Self.hash($0, 0, $0.count) }
            var slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
            while words[slot] != .none { slot = (slot + 1) & (Self.slotCount - 1) }
            hashes[slot] = hash
            words[slot] = word
            spellings[slot] = bytes
        }
    }

    /// FNV-1a over `bytes[start..<end]`.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in start..<end {
            hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The word spelled by `bytes[start..<end]`, or `.none`.
    func word(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Word {
        let length = end - start
        guard length >= 2, length <= 11 else { return .none }
        let hash = Self.hash(bytes, start, end)
        var slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        while words[slot] != .none {
            if hashes[slot] == hash, spellings[slot].count == length {
                var same = true
                for offset in 0..<length where spellings[slot][offset] != bytes[start + offset] {
                    same = false
                    break
                }
                if same { return words[slot] }
            }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        return .none
    }
}
