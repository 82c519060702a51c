import Domain
import Foundation
import Testing

@testable import Learning

@Suite("Numbers in reasons")
struct NumberFormatTests {
    @Test("a reason's number reads as printf writes it, rounding, signs and the values printf spells out included")
    func formatMatchesPrintf() {
        var values: [Double] = [
            0, -0.0, 0.0005, 0.0015, 0.0025, 1.0005, -1.0005, 2.5e-4, 0.1 + 0.2, 0.7375, 123_456.789_5, -0.0004,
            1e15, 1e30, -1e300, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        ]
        var random = SeededRandom(seed: 7)
        values += (0..<2_000).map { _ in random.uniform(-50...50) }
        for value in values {
            for digits in [0, 1, 2, 3] {
                #expect(
                    ModelTrainer.format(value, digits: digits) == String(format: "%.\(digits)f", value),
                    "\(value) with \(digits) digits")
            }
        }
    }
}
