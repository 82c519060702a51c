import Domain

/// Identifies the logs a fit saw (days, values and sources, as `DailyLog`s or `SourcedDayValues`: the same
/// fingerprint either way), so that the exact training matrix can be rebuilt later (`pipeline features`) and a
/// change in the data since the fit noticed.
///
/// A fingerprint is "2:" and sixteen hex digits: a 64-bit hash that takes each day's ordinal and each field's
/// value bits and source as whole words (xor, multiply by an odd constant, fold the high half into the low, all
/// three invertible, so two sequences that differ in one word never share a hash), finished by MurmurHash3's
/// mix. Earlier versions stored FNV-1a over the same words' bytes, with no prefix: many times the steps, a
/// measurable share of a retrain's CPU (docs/benchmarks.md). Those are still recognized.
enum DesignFingerprint {
    static func of<Days: SourcedFieldValues>(_ logs: [Days]) -> String {
        var hash: UInt64 = 0x243F_6A88_85A3_08D3
        forEachWord(of: logs) { word in
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 32
        }
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return prefix + String(hash, radix: 16)
    }

    /// Whether `stored` is the fingerprint of `logs`, in either form.
    static func matches<Days: SourcedFieldValues>(_ stored: String?, _ logs: [Days]) -> Bool {
        guard let stored else { return false }
        if stored.hasPrefix(prefix) { return stored == of(logs) }
        var hash = FNV1a()
        forEachWord(of: logs) { hash.add($0) }
        return stored == String(hash.value, radix: 16)
    }

    private static let prefix = "2:"

    /// The words a fingerprint hashes, in order: per log its day's ordinal, then per field the value's bits (or
    /// a NaN pattern no value has) and 1 for a value the person typed.
    private static func forEachWord<Days: SourcedFieldValues>(of logs: [Days], _ body: (UInt64) -> Void) {
        for log in logs {
            body(UInt64(bitPattern: Int64(log.day.ordinal)))
            for field in Field.allCases {
                body(log.value(of: field).map { $0.bitPattern } ?? 0x7FF8_DEAD_0000_0001)
                body(log.source(of: field) == .user ? 1 : 0)
            }
        }
    }
}
