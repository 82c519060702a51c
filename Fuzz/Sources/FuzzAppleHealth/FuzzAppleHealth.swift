import Domain
import Foundation
import FuzzSupport

@testable import Ingestion

/// One input: an export.xml read through the scanner and the record decoder, handed to them in
/// chunks of 7 bytes so that every construct also straddles a chunk boundary.
///
/// Besides crashes, it checks the import's promises: a summary whose counts add up, daily values
/// within their fields' bounds, and a summary and error messages that print as themselves whatever
/// the input held.
func fuzzAppleHealth(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: size == 0 ? nil : data, count: size))
    var importer = AppleHealthImport(user: UserID("fuzz")!, timeZone: TimeZone(identifier: "Europe/Berlin")!)
    importer.chunkSize = 16
    do throws(AppleHealthError) {
        let result = try importer.read(input: MemoryInput(bytes, chunk: 7))
        let summary = result.summary
        precondition(
            summary.recordsRead == summary.recordsUsedTotal + summary.recordsSkippedTotal,
            "records read \(summary.recordsRead) ≠ used \(summary.recordsUsedTotal) + skipped \(summary.recordsSkippedTotal)"
        )
        for day in result.health {
            checkBounds(.hrv, day.hrv)
            checkBounds(.restingHeartRate, day.restingHeartRate)
            checkBounds(.stepCount, day.stepCount.map(Double.init))
            checkBounds(.sleepDuration, day.sleepDuration)
        }
        // The summary names record types from the input; line by line, it must print as itself.
        for line in summary.description.split(separator: "\n") { checkPrintable(String(line)) }
    } catch {
        checkPrintable(error.description)
    }
    return 0
}

private func checkBounds(_ field: Field, _ value: Double?) {
    guard let value else { return }
    do throws(DomainError) {
        try field.validate(value)
    } catch {
        fatalError("a daily \(field.rawValue) of \(value) is outside the field's bounds")
    }
}

@_cdecl("FuzzAppleHealth_main")
func start(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzAppleHealth($0, $1) }
}
