import CFuzzerDriver
import Domain

/// A fuzzer's callback: one input, its length; returns 0 (libFuzzer's convention).
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Starts libFuzzer's driver with `target` and the program's arguments; returns its exit status.
///
/// Called from each fuzzer's entry point. SwiftPM links an executable's `main` to `<target>_main` (so
/// that tests can link the executable's module), which would clash with libFuzzer's own `main`; so a
/// fuzzer defines `<target>_main` and starts the driver from there.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ target: FuzzTarget
) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, target)
}

/// Stops the run (libFuzzer saves the input) when `message` holds a character that does not print
/// as itself — one from the input would forge lines in cron mail or drive a terminal — or is long
/// enough to have grown with the input.
public func checkPrintable(_ message: String) {
    for scalar in message.unicodeScalars where !PrintableExcerpt.printsAsItself(scalar) {
        fatalError("a message holds the unprintable U+\(String(scalar.value, radix: 16)): \(message.debugDescription)")
    }
    precondition(message.utf8.count < 2_000, "a message of \(message.utf8.count) bytes")
}
