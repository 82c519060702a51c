import Domain
import Foundation
import Storage
import TestSupport
import Testing

/// DESIGN §2's merge rules, checked on the real SQL upserts against a small reference model of the
/// rules, for every sequence of up to three writes to one metric field.
@Suite("Merge rules")
struct MergeRulesTests {
    /// One write to a single metric field.
    enum Write: CustomStringConvertible, CaseIterable {
        case userSets, userSetsOther, userClears, userOmits, healthSets, healthSetsOther, healthOmits

        var description: String {
            switch self {
            case .userSets: "user sets A"
            case .userSetsOther: "user sets B"
            case .userClears: "user clears"
            case .userOmits: "user entry without the field"
            case .healthSets: "health sets C"
            case .healthSetsOther: "health sets D"
            case .healthOmits: "health sync without the field"
            }
        }
    }

    /// The rules, restated as a state machine over (value, source).
    static func expected(after writes: [Write], values: [Double]) -> Sourced<Double>? {
        var state: Sourced<Double>?
        for write in writes {
            switch write {
            case .userSets: state = Sourced(values[0], .user)
            case .userSetsOther: state = Sourced(values[1], .user)
            case .userClears: state = nil
            case .userOmits, .healthOmits: break
            case .healthSets: if state?.source != .user { state = Sourced(values[2], .health) }
            case .healthSetsOther: if state?.source != .user { state = Sourced(values[3], .health) }
            }
        }
        return state
    }

    static var sequences: [[Write]] {
        var all: [[Write]] = Write.allCases.map { [$0] }
        for _ in 0..<2 {
            all += all.filter { $0.count == all.last!.count }.flatMap { prefix in Write.allCases.map { prefix + [$0] } }
        }
        return all
    }

    static let user = UserID.literal("merge")
    static let day = Day.literal("2026-03-01")

    /// Writes `write` to `field` through the store's public API.
    static func apply(_ write: Write, field: Field, values: [Double], to store: Store, day: Day = day) async throws {
        var entry = UserEntry(user: user, day: day)
        var metrics = HealthMetrics(user: user, day: day)
        func set(_ value: Double?) {
            let patch: Patch<Double> = value.map { .set($0) } ?? .clear
            switch field {
            case .hrv: entry.hrv = patch
            case .restingHeartRate: entry.restingHeartRate = patch
            case .stepCount: entry.stepCount = value.map { .set(Int($0)) } ?? .clear
            case .sleepDuration: entry.sleepDuration = patch
            default: preconditionFailure("not a metric")
            }
        }
        func sync(_ value: Double) {
            switch field {
            case .hrv: metrics.hrv = value
            case .restingHeartRate: metrics.restingHeartRate = value
            case .stepCount: metrics.stepCount = Int(value)
            case .sleepDuration: metrics.sleepDuration = value
            default: preconditionFailure("not a metric")
            }
        }
        switch write {
        case .userSets: set(values[0])
        case .userSetsOther: set(values[1])
        case .userClears: set(nil)
        case .userOmits: entry.mood = .set(3)
        case .healthSets: sync(values[2])
        case .healthSetsOther: sync(values[3])
        case .healthOmits:
            // A sync that carries another field only.
            let other: Field = field == .hrv ? .restingHeartRate : .hrv
            metrics = HealthMetrics(user: user, day: day)
            if other == .hrv { metrics.hrv = 50 } else { metrics.restingHeartRate = 60 }
        }
        switch write {
        case .userSets, .userSetsOther, .userClears, .userOmits: try await store.write(entry)
        case .healthSets, .healthSetsOther, .healthOmits: try await store.write(metrics)
        }
    }

    static func stored(_ log: DailyLog?, _ field: Field) -> Sourced<Double>? {
        guard let log, let value = log.value(of: field), let source = log.source(of: field) else { return nil }
        return Sourced(value, source)
    }

    static let valuesByField: [Field: [Double]] = [
        .hrv: [40, 41, 70, 71], .restingHeartRate: [55, 56, 65, 66],
        .stepCount: [1000, 2000, 9000, 12000], .sleepDuration: [25_200, 27_000, 21_600, 18_000],
    ]

    @Test(
        "every sequence of up to three user and health writes ends as the rules say", arguments: TestBackend.all,
        Field.metrics)
    func everySequence(backend: TestBackend, field: Field) async throws {
        let values = Self.valuesByField[field]!
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        // Each sequence writes its own day, so they cannot see each other.
        for (index, writes) in Self.sequences.enumerated() {
            let day = Self.day.adding(days: index)
            for write in writes {
                try await Self.apply(write, field: field, values: values, to: store, day: day)
            }
            let log = try await store.dailyLog(user: Self.user, day: day)
            let actual = Self.stored(log, field)
            let expected = Self.expected(after: writes, values: values)
            #expect(actual == expected, "\(field.rawValue) after \(writes)")
        }
    }

    @Test("a health sync leaves the user-only fields and the user's metric values alone", arguments: TestBackend.all)
    func healthNeverTouchesUserFields(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        var entry = UserEntry(user: Self.user, day: Self.day)
        entry.symptomSeverity = .set(6)
        entry.mood = .set(2)
        entry.energy = .set(4)
        entry.notes = .set("headache after lunch")
        entry.sleepDuration = .set(21_600)
        try await store.write(entry)
        try await store.write(
            HealthMetrics(
                user: Self.user, day: Self.day, hrv: 45, restingHeartRate: 62, stepCount: 8000, sleepDuration: 30_000))
        let log = try #require(try await store.dailyLog(user: Self.user, day: Self.day))
        #expect(log.symptomSeverity == 6)
        #expect(log.mood == 2)
        #expect(log.energy == 4)
        #expect(log.notes == "headache after lunch")
        #expect(log.sleepDuration == Sourced(21_600, .user))
        #expect(log.hrv == Sourced(45, .health))
        #expect(log.stepCount == Sourced(8000, .health))
    }

    @Test("an entry that mentions only some fields leaves the others as they were", arguments: TestBackend.all)
    func absentMeansUnchanged(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        var first = UserEntry(user: Self.user, day: Self.day)
        first.symptomSeverity = .set(3)
        first.notes = .set("ok")
        try await store.write(first)
        var second = UserEntry(user: Self.user, day: Self.day)
        second.mood = .set(5)
        try await store.write(second)
        var third = UserEntry(user: Self.user, day: Self.day)
        third.notes = .clear
        try await store.write(third)
        let log = try #require(try await store.dailyLog(user: Self.user, day: Self.day))
        #expect(log.symptomSeverity == 3)
        #expect(log.mood == 5)
        #expect(log.notes == nil)
    }

    @Test("a value outside the schema's bounds is refused by the database itself", arguments: TestBackend.all)
    func checkConstraints(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        var entry = UserEntry(user: Self.user, day: Self.day)
        entry.symptomSeverity = .set(11)
        await #expect(throws: StorageError.self) { try await store.write(entry) }
        #expect(try await store.dailyLog(user: Self.user, day: Self.day) == nil)
    }

    @Test(
        "a run of writes coalesced into one DayWrite stores exactly what the writes store one by one",
        arguments: TestBackend.all)
    func coalescedEqualsSequential(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        var random = SeededRandom(seed: 7)
        func patch(_ values: [Double]) -> Patch<Double> {
            switch random.next() % 4 {
            case 0: .clear
            case 1: .set(values[Int(random.next() % UInt64(values.count))])
            default: .unchanged
            }
        }
        for round in 0..<400 {
            let sequential = Self.day.adding(days: 2 * round)
            let coalesced = sequential.adding(days: 1)
            var writes: [(UserEntry?, HealthMetrics?)] = []
            for _ in 0..<(1 + random.next() % 4) {
                if random.chance(0.5) {
                    var entry = UserEntry(user: Self.user, day: sequential)
                    entry.hrv = patch([40, 41])
                    entry.sleepDuration = patch([20_000, 21_000])
                    entry.stepCount = patch([100, 200]).map { Int($0) }
                    if random.chance(0.5) { entry.mood = .set(Int(1 + random.next() % 5)) }
                    writes.append((entry, nil))
                } else {
                    var metrics = HealthMetrics(user: Self.user, day: sequential)
                    if random.chance(0.6) { metrics.hrv = 70 + Double(random.next() % 3) }
                    if random.chance(0.6) { metrics.sleepDuration = 30_000 }
                    if random.chance(0.6) { metrics.stepCount = 9_000 }
                    writes.append((nil, metrics))
                }
            }
            var combined: DayWrite?
            for (entry, metrics) in writes {
                if let entry {
                    if entry.hasChange { try await store.write(entry) }
                    var moved = entry
                    moved.day = coalesced
                    if combined == nil { combined = DayWrite(moved) } else { combined!.merge(moved) }
                }
                if let metrics {
                    if !metrics.isEmpty { try await store.write(metrics) }
                    var moved = metrics
                    moved.day = coalesced
                    if combined == nil { combined = DayWrite(moved) } else { combined!.merge(moved) }
                }
            }
            let write = try #require(combined)
            try await store.batch { store in _ = try store.stage(write) }
            var one = try await store.dailyLog(user: Self.user, day: sequential)
            let other = try await store.dailyLog(user: Self.user, day: coalesced)
            one?.day = coalesced
            // A sequence of no-op writes stores no row one by one, but an empty row coalesced.
            if one == nil, let other {
                #expect(Field.allCases.allSatisfy { other.value(of: $0) == nil })
            } else {
                #expect(one == other, "round \(round): \(writes)")
            }
        }
    }
}

extension Patch {
    func map<T>(_ transform: (Value) -> T) -> Patch<T> {
        switch self {
        case .unchanged: .unchanged
        case .clear: .clear
        case .set(let value): .set(transform(value))
        }
    }
}

extension UserEntry {
    var hasChange: Bool {
        !(hrv.isUnchanged && sleepDuration.isUnchanged && stepCount.isUnchanged && mood.isUnchanged)
    }
}
