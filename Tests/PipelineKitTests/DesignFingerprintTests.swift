import Domain
import TestSupport
import Testing

@testable import PipelineKit

@Suite("The fingerprint of the logs a fit saw")
struct DesignFingerprintTests {
    static let user = UserID.literal("user-00001")

    /// Three days with typed values, health readings and gaps.
    static var logs: [DailyLog] {
        var first = DailyLog(user: user, day: Day("2026-03-01")!)
        first.symptomSeverity = 4
        first.mood = 3
        first.hrv = Sourced(48.2, .health)
        first.stepCount = Sourced(8042, .user)
        var second = DailyLog(user: user, day: Day("2026-03-02")!)
        second.sleepDuration = Sourced(27_000, .health)
        second.restingHeartRate = Sourced(61, .user)
        var third = DailyLog(user: user, day: Day("2026-03-04")!)
        third.energy = 2
        return [first, second, third]
    }

    /// FNV-1a over the bytes of the same words, least significant byte first: the form earlier versions
    /// stored, written out here from its definition.
    static func legacy(_ logs: [DailyLog]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ word: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash = (hash ^ ((word >> UInt64(shift)) & 0xFF)) &* 0x100_0000_01b3
            }
        }
        for log in logs {
            add(UInt64(bitPattern: Int64(log.day.ordinal)))
            for field in Field.allCases {
                add(log.value(of: field).map { $0.bitPattern } ?? 0x7FF8_DEAD_0000_0001)
                add(log.source(of: field) == .user ? 1 : 0)
            }
        }
        return String(hash, radix: 16)
    }

    @Test("a fingerprint matches its own logs and no change to a value, a source, a day or the list")
    func noticesEveryChange() {
        let logs = Self.logs
        let stored = DesignFingerprint.of(logs)
        #expect(stored.hasPrefix("2:"))
        #expect(DesignFingerprint.matches(stored, logs))
        #expect(!DesignFingerprint.matches(nil, logs))

        var changed: [[DailyLog]] = []
        var value = logs
        value[0].hrv = Sourced(48.3, .health)
        changed.append(value)
        var source = logs
        source[1].sleepDuration = Sourced(27_000, .user)
        changed.append(source)
        var cleared = logs
        cleared[2].energy = nil
        changed.append(cleared)
        var moved = logs
        moved[2].day = Day("2026-03-03")!
        changed.append(moved)
        changed.append(Array(logs.dropLast()))
        changed.append([])
        for other in changed {
            #expect(DesignFingerprint.of(other) != stored)
            #expect(!DesignFingerprint.matches(stored, other))
        }
    }

    @Test("the days a retrain reads (values and sources, no notes) have their logs' fingerprint")
    func sourcedDaysSameAsLogs() {
        var logs = Self.logs
        logs[0].notes = "slept badly"
        let days = logs.map(SourcedDayValues.init)
        #expect(DesignFingerprint.of(days) == DesignFingerprint.of(logs))
        #expect(DesignFingerprint.matches(DesignFingerprint.of(logs), days))
        for (day, log) in zip(days, logs) {
            #expect(Field.allCases.allSatisfy { day.source(of: $0) == log.source(of: $0) })
        }
        // A source the person typed is part of it, as for logs.
        var typed = logs
        typed[0].hrv = Sourced(48.2, .user)
        #expect(DesignFingerprint.of(typed.map(SourcedDayValues.init)) != DesignFingerprint.of(days))
    }

    @Test("a fingerprint stored by an earlier version (FNV-1a, no prefix) is still recognized")
    func earlierFormRecognized() {
        let logs = Self.logs
        let stored = Self.legacy(logs)
        #expect(!stored.hasPrefix("2:"))
        #expect(DesignFingerprint.matches(stored, logs))
        var changed = logs
        changed[0].mood = 4
        #expect(!DesignFingerprint.matches(stored, changed))
    }
}
