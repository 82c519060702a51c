/// A span of time, `[start, end)`, in seconds since 1970-01-01T00:00:00Z.
struct Interval: Hashable, Comparable {
    var start: Int64
    var end: Int64

    var duration: Int64 { end - start }

    static func < (lhs: Interval, rhs: Interval) -> Bool {
        (lhs.start, lhs.end) < (rhs.start, rhs.end)
    }

    /// The union of `intervals` as sorted, disjoint spans; spans that touch are joined, so stages of
    /// one night recorded back to back become one block.
    static func union(_ intervals: [Interval]) -> [Interval] {
        var merged: [Interval] = []
        for interval in intervals.sorted() {
            if let last = merged.last, interval.start <= last.end {
                merged[merged.count - 1].end = max(last.end, interval.end)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// Seconds of `self` inside `spans`, which must be sorted and disjoint (as `union` returns them).
    func overlap(with spans: [Interval]) -> Int64 {
        // The first span that ends after `start`; spans before it cannot overlap.
        var low = 0
        var high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].end <= start { low = middle + 1 } else { high = middle }
        }
        var total: Int64 = 0
        var index = low
        while index < spans.count, spans[index].start < end {
            total += min(end, spans[index].end) - max(start, spans[index].start)
            index += 1
        }
        return total
    }

    /// Whether the instant `point` lies in one of `spans` (sorted and disjoint).
    static func contains(_ point: Int64, in spans: [Interval]) -> Bool {
        Interval(start: point, end: point + 1).overlap(with: spans) > 0
    }
}
