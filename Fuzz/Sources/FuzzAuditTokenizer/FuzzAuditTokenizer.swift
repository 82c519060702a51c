import FuzzSupport

@testable import Audit

/// One input: a Swift source file for `pipeline audit`'s tokenizer.
///
/// Besides crashes, it checks that every token lies inside the input, in order, on a line that
/// exists, so that a rule reading a token's bytes cannot read past the file.
func fuzzAuditTokenizer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size == 0 ? nil : data, count: size)
    let tokens = Tokenizer.tokenize(bytes)
    let lines = UInt32(bytes.count { $0 == 10 } + 1)
    var previousEnd: UInt32 = 0
    for token in tokens {
        precondition(token.start >= previousEnd, "token \(token) overlaps the one before")
        precondition(token.start <= token.end && Int(token.end) <= size, "token \(token) outside \(size) bytes")
        precondition(token.line >= 1 && token.line <= lines, "token \(token) on a line past \(lines)")
        previousEnd = token.end
    }
    return 0
}

@_cdecl("FuzzAuditTokenizer_main")
func start(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzAuditTokenizer($0, $1) }
}
