import Domain
import Foundation
import FuzzSupport
import Ingestion

/// One input: a JSON Lines file, split into lines in small chunks (so that lines straddle chunk
/// boundaries) and decoded line by line as `pipeline ingest` does.
///
/// Besides crashes, it checks what a user sees: no error message carries a control character from
/// the input (it would forge lines in cron mail or drive a terminal) or grows with the input.
func fuzzJSONLines(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: size == 0 ? nil : data, count: size))
    let decoder = RecordDecoder(defaultEnqueuedAt: Date(timeIntervalSince1970: 1_772_323_200))
    let reader = JSONLinesReader(.bytes(bytes), chunkSize: 64)
    _ = reader.forEachLine { (_, line) in
        guard case .text(let text) = line else { return }
        do throws(FieldError) {
            _ = try decoder.decode(line: text)
        } catch {
            checkPrintable(error.description)
        }
    }
    return 0
}

@_cdecl("FuzzJSONLines_main")
func start(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzJSONLines($0, $1) }
}
