public import Domain
import Foundation

/// What the writer does with a piece of planned input.
public enum PlannedWrite: Sendable {
    /// Consecutive user-days, each from consecutive entry and health records.
    case days(PlannedDays)
    /// A user, settings or watch record.
    case record(InputRecord, line: Int)
    /// A line refused before it reached the database.
    case rejected(line: Int, FieldError)

    /// The input records it stands for.
    public var records: Int {
        switch self {
        case .days(let days): days.records
        case .record, .rejected: 1
        }
    }
}

/// One user-day being planned from consecutive entry and health records, with the watch items of a known
/// kind for that day that the input had among them.
public struct PlannedDay: Sendable {
    var write: DayWrite
    /// The day's entry and health lines, with their kinds.
    var lines: DayLines
    /// The watch items read among the day's records whose payload is for this day, by line, with the entry
    /// each stands for. Each is merged into the day after its records, which is what its drain does to the
    /// stored day, and is either queued as every watch item is (the drain then finds its effect there and
    /// writes nothing, `SQLiteDriver.upsertNonClearingEntries`) or, when nothing could be applied after it,
    /// withheld from the queue (`IngestPlanner.withhold`): then it carries its submission, which the writer
    /// queues after all if the database refuses the merged day. One case ends otherwise for a queued item: a
    /// user record later in the same input that moves the user's zone far enough west makes the drain refuse
    /// the item's day as too far ahead (it stays queued, and is retried), while its value, like the day's own
    /// records, is already stored.
    var watchItems: [PlannedItem] = []
    /// The fields of watch items withheld from the queue in earlier days of the same user-day, which this
    /// day's records leave unchanged: the drain would have applied those items again after them.
    var leftUnchanged: PersonalFields = []

    public typealias PlannedItem = (line: Int, entry: UserEntry, withheld: WatchSubmission?)
}

/// A user and a day, as a dictionary key.
struct UserDay: Hashable, Sendable {
    var user: UserID
    var day: Day
}

/// Planned user-days handed to the writer together, in input order, as the store stages them: the writing
/// thread takes them a batch at a time instead of unpacking each one (a copy and a release a day), and the
/// watch items are merged on the reading thread.
public struct PlannedDays: Sendable {
    /// Days handed over at once, unless a rejected line, or the input's end or pause, comes first.
    static let limit = 256

    public private(set) var writes: [DayWrite] = []
    public private(set) var lines: [DayLines] = []
    /// The days with watch items merged in (`PlannedDay.watchItems`), by index in `writes`, each with the
    /// write its records alone made: what is staged instead for an item the database refuses to queue,
    /// or when it refuses the merged write.
    public private(set) var merges: [Merge] = []
    public typealias Merge = (index: Int, unmerged: DayWrite, items: [PlannedDay.PlannedItem])
    /// The entry and health records of the days, and the watch items withheld from the queue.
    public private(set) var records = 0

    public var count: Int { writes.count }

    mutating func append(_ day: PlannedDay) {
        var write = day.write
        write.leaveUnchanged(day.leftUnchanged)
        if day.watchItems.isEmpty {
            writes.append(write)
        } else {
            var merged = write
            for item in day.watchItems {
                merged.merge(item.entry)
                if item.withheld != nil { records += 1 }
            }
            merges.append((writes.count, write, day.watchItems))
            writes.append(merged)
        }
        lines.append(day.lines)
        records += day.lines.count
    }
}

/// A planned day's entry and health lines, in input order: one or two in almost every input, held without an
/// array of their own (an allocation a day, freed on the writing thread, was a measurable part of its work).
public struct DayLines: Sequence, Sendable {
    public enum Kind: Sendable {
        case entry, health

        public var typeName: String {
            switch self {
            case .entry: "entry"
            case .health: "health"
            }
        }
    }

    public typealias Element = (number: Int, kind: Kind)

    public private(set) var count = 1
    /// How many of the lines are entries.
    public private(set) var entries: Int
    private let first: Element
    private var second: Element?
    private var rest: [Element] = []

    init(_ number: Int, _ kind: Kind) {
        first = (number, kind)
        entries = kind == .entry ? 1 : 0
    }

    mutating func append(_ number: Int, _ kind: Kind) {
        if second == nil { second = (number, kind) } else { rest.append((number, kind)) }
        count += 1
        if kind == .entry { entries += 1 }
    }

    public struct Iterator: IteratorProtocol {
        let lines: DayLines
        var index = 0

        public mutating func next() -> Element? {
            defer { index += 1 }
            switch index {
            case 0: return lines.first
            case 1: return lines.second
            default: return index - 2 < lines.rest.count ? lines.rest[index - 2] : nil
            }
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(lines: self)
    }
}
