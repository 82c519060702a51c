/// Which kind of device a step source is, for the order in which overlapping sources are trusted.
enum DeviceClass: Int, Comparable {
    case watch = 0
    case phone = 1
    case other = 2

    static func < (lhs: DeviceClass, rhs: DeviceClass) -> Bool { lhs.rawValue < rhs.rawValue }

    /// From the record's `device` description (`…, model:Watch, …`) when there is one, otherwise from
    /// the source's name, which Health sets to the device's name ("Ada's Apple Watch").
    static func classify(sourceName: [UInt8], device: [UInt8]?) -> DeviceClass {
        if let device {
            if device.contains(subsequence: "model:Watch") { return .watch }
            if device.contains(subsequence: "model:iPhone") { return .phone }
        }
        if sourceName.contains(subsequence: "Watch") { return .watch }
        if sourceName.contains(subsequence: "iPhone") { return .phone }
        return .other
    }
}

/// A share of one step record that falls on one local day.
struct StepSample {
    var start: Int64
    var duration: Int32
    /// The interned source (`ExportRecordDecoder` numbers sources in the order they first appear).
    var source: Int32
    var count: Double

    var interval: Interval { Interval(start: start, end: start + Int64(duration)) }
}

/// A day's step count from overlapping sources, each step counted once.
///
/// The rule, the one Health's source priority list applies: sources are ranked Apple Watch first,
/// then iPhone, then every other app or device, ties broken by the order the sources first appear
/// in the export. A source counts only the part of each sample that no higher-ranked source
/// covers, assuming its steps spread evenly over the sample's interval; an instantaneous sample
/// counts unless a higher-ranked source covers its instant. So when the Watch and the iPhone both
/// record a walk, the walk counts once, from the Watch, and the iPhone still adds the steps it
/// recorded while the Watch was off the wrist.
enum StepCounter {
    static func total(_ samples: [StepSample], rank: (Int32) -> Int) -> Double {
        let ordered = samples.sorted { (rank($0.source), $0.start) < (rank($1.source), $1.start) }
        var covered: [Interval] = []
        var total = 0.0
        var groupStart = 0
        while groupStart < ordered.count {
            let groupRank = rank(ordered[groupStart].source)
            var groupEnd = groupStart
            while groupEnd < ordered.count, rank(ordered[groupEnd].source) == groupRank { groupEnd += 1 }
            let group = ordered[groupStart..<groupEnd]
            for sample in group {
                if sample.duration == 0 {
                    if !Interval.contains(sample.start, in: covered) { total += sample.count }
                } else {
                    let uncovered = Int64(sample.duration) - sample.interval.overlap(with: covered)
                    total += sample.count * Double(uncovered) / Double(sample.duration)
                }
            }
            covered = Interval.union(covered + group.filter { $0.duration > 0 }.map(\.interval))
            groupStart = groupEnd
        }
        return total
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence text: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { offset in
            needle.indices.allSatisfy { self[offset + $0] == needle[$0] }
        }
    }
}
