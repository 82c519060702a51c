import Domain

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
        }
    }
}
