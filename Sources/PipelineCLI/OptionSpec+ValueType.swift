import Domain
import Foundation
import Scheduling

extension OptionSpec.ValueType {
    /// Whether `text` is a value of this type.
    func accepts(_ text: String) -> Bool {
        switch self {
        case .text: !text.isEmpty
        case .integer(let range): Int(text).map { range?.contains($0) ?? true } ?? false
        case .choice(let words): words.contains(text)
        case .day: Day(text) != nil
        case .instant: ISO8601Instant.date(from: text) != nil
        case .user: UserID.isValid(text)
        case .task: TaskIdentifier(text) != nil
        case .duration: Self.seconds(in: text) != nil
        }
    }

    /// What a value must look like, completing "expected …" in a usage error.
    var expected: String {
        switch self {
        case .text: "a non-empty value"
        case .integer(nil): "an integer"
        case .integer(let range?): "an integer from \(range.lowerBound) to \(range.upperBound)"
        case .choice(let words): "one of " + words.joined(separator: ", ")
        case .day: "a date YYYY-MM-DD"
        case .instant: ISO8601Instant.expectedForm
        case .user: "a user id of 1 to 64 letters, digits, '.', '_' or '-'"
        case .task: "a task identifier such as ml-retrain"
        case .duration: "a duration such as 90s, 15m or 1h"
        }
    }

    /// Seconds in `90`, `90s`, `15m`, `15min`, `1.5h`; `nil` for anything else or a duration that is
    /// not positive.
    static func seconds(in text: String) -> TimeInterval? {
        let units: [(suffix: String, seconds: Double)] = [("min", 60), ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        if let unit = units.first(where: { text.hasSuffix($0.suffix) }) {
            number = number.dropLast(unit.suffix.count)
            scale = unit.seconds
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value > 0, value.isFinite
        else { return nil }
        return value * scale
    }
}
