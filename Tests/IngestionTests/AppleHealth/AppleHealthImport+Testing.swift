import Domain
import Foundation
import TestSupport

@testable import Ingestion

extension AppleHealthImport {
    /// An import for user `ada` in `zone`.
    static func ada(in zone: String = "Europe/Berlin") -> AppleHealthImport {
        AppleHealthImport(user: UserID("ada")!, timeZone: TimeZone(identifier: zone)!)
    }

    /// Reads `xml` from memory, handed over `chunk` bytes at a time.
    func read(xml: String, chunk: Int = 1 << 20) throws(AppleHealthError) -> AppleHealthResult {
        try read(input: MemoryInput(Array(xml.utf8), chunk: chunk))
    }
}

extension AppleHealthResult {
    func health(on day: String) -> HealthMetrics? {
        health.first { $0.day == Day(day)! }
    }

    func entry(on day: String) -> UserEntry? {
        userEntered.first { $0.day == Day(day)! }
    }

    func timeInBed(on day: String) -> Double? {
        timeInBed.first { $0.day == Day(day)! }?.seconds
    }

    /// Everything but the byte count, which differs between two renderings of the same records.
    var withoutByteCount: AppleHealthResult {
        var copy = self
        copy.summary.bytesRead = 0
        return copy
    }
}

/// Whether `value` is within `tolerance` of `expected`; `false` when there is no value.
func isClose(_ value: Double?, _ expected: Double, tolerance: Double = 1e-9) -> Bool {
    guard let value else { return false }
    return abs(value - expected) <= tolerance
}

/// The copies of ../shared/fixtures/apple-health/ kept in the repository (see Fixtures/SOURCES.md).
func fixture(_ name: String) -> String {
    directory().appendingPathComponent("Fixtures").appendingPathComponent(name).path
}
