import Domain
import Foundation
import Testing

@testable import Ingestion

/// Generated exports whose daily values are worked out by hand in the comments. The user lives in
/// Europe/Berlin unless a test says otherwise.
@Suite("Apple Health daily values")
struct AppleHealthDayRulesTests {
    // Berlin springs forward on 2026-03-29 at 01:00Z (02:00 CET becomes 03:00 CEST): a 23-hour day.
    static let springForward: [SyntheticRecord] = [
        // 2026-03-28 22:00Z → 2026-03-29 05:00Z: 7 h = 25 200 s of real time, though the clock
        // moved 8 h; it ends at 07:00 on the 29th, so it is that day's night.
        .sleep("AsleepCore", "2026-03-28 23:00:00 +0100", "2026-03-29 07:00:00 +0200"),
        // 21:45Z → 05:15Z: 7.5 h = 27 000 s in bed.
        .sleep("InBed", "2026-03-28 22:45:00 +0100", "2026-03-29 07:15:00 +0200", from: .phone),
        // Either side of the jump, both on the 29th: 100 + 200 steps.
        .steps(100, "2026-03-29 01:30:00 +0100", "2026-03-29 01:40:00 +0100"),
        .steps(200, "2026-03-29 03:10:00 +0200", "2026-03-29 03:20:00 +0200"),
        // 21:00Z → 23:00Z spans Berlin's midnight (22:00Z): one hour on each day, 600 + 600.
        .steps(1200, "2026-03-29 23:00:00 +0200", "2026-03-30 01:00:00 +0200"),
        // 00:59Z (01:59 CET) and 01:01Z (03:01 CEST) are both on the 29th: mean of 40 and 60 is 50.
        .hrv("40", at: "2026-03-29 01:59:00 +0100"),
        .hrv("60", at: "2026-03-29 03:01:00 +0200"),
    ]

    @Test("on the spring-forward day, sleep is real elapsed time and steps split at the local midnight")
    func springForwardDay() throws {
        let result = try AppleHealthImport.ada().read(xml: HealthExportWriter.xml(Self.springForward))
        let day = try #require(result.health(on: "2026-03-29"))
        #expect(isClose(day.sleepDuration, 25_200))
        #expect(day.stepCount == 900)
        #expect(isClose(day.hrv, 50))
        #expect(isClose(result.timeInBed(on: "2026-03-29"), 27_000))
        #expect(result.health(on: "2026-03-30")?.stepCount == 600)
    }

    // Berlin falls back on 2026-10-25 at 01:00Z (03:00 CEST becomes 02:00 CET): a 25-hour day in
    // which 02:30 happens twice.
    static let fallBack: [SyntheticRecord] = [
        // 2026-10-24 21:00Z → 2026-10-25 06:00Z: 9 h = 32 400 s, though the clock moved 8 h.
        .sleep("AsleepCore", "2026-10-24 23:00:00 +0200", "2026-10-25 07:00:00 +0100"),
        // The same wall-clock ten minutes, an hour apart in real time (00:30Z and 01:30Z): no
        // overlap, so the iPhone's 100 and the Watch's 150 both count: 250.
        .steps(100, "2026-10-25 02:30:00 +0200", "2026-10-25 02:40:00 +0200", from: .phone),
        .steps(150, "2026-10-25 02:30:00 +0100", "2026-10-25 02:40:00 +0100"),
    ]

    @Test("on the fall-back day, the repeated hour is two hours of real time, not an overlap")
    func fallBackDay() throws {
        let result = try AppleHealthImport.ada().read(xml: HealthExportWriter.xml(Self.fallBack))
        let day = try #require(result.health(on: "2026-10-25"))
        #expect(isClose(day.sleepDuration, 32_400))
        #expect(day.stepCount == 250)
        #expect(result.health.count == 1)
    }

    @Test("a record from local midnight to local midnight of the 25-hour day stays on that day")
    func wholeLongDay() throws {
        // 2026-10-24 22:00Z → 2026-10-25 23:00Z: 25 h, all of them Berlin's 2026-10-25.
        let xml = HealthExportWriter.xml([
            .steps(2500, "2026-10-25 00:00:00 +0200", "2026-10-26 00:00:00 +0100", from: .app("Pedometer"))
        ])
        let result = try AppleHealthImport.ada().read(xml: xml)
        #expect(result.health.map(\.day) == [Day("2026-10-25")!])
        #expect(result.health.first?.stepCount == 2500)
    }

    // Nights in May (+0200).
    static let nights: [SyntheticRecord] = [
        // The Watch's stages: 22:30–01:00 asleep, 01:00–01:20 awake, then deep and REM back to back.
        .sleep("AsleepCore", "2026-05-04 22:30:00 +0200", "2026-05-05 01:00:00 +0200"),
        .sleep("Awake", "2026-05-05 01:00:00 +0200", "2026-05-05 01:20:00 +0200"),
        .sleep("AsleepDeep", "2026-05-05 01:20:00 +0200", "2026-05-05 04:00:00 +0200"),
        .sleep("AsleepREM", "2026-05-05 04:00:00 +0200", "2026-05-05 06:30:00 +0200"),
        // The iPhone saw part of the same sleep: inside the Watch's first block, adds nothing.
        .sleep("AsleepUnspecified", "2026-05-04 23:00:00 +0200", "2026-05-05 00:30:00 +0200", from: .phone),
        // A nap ending before 18:00 belongs to that day.
        .sleep("AsleepUnspecified", "2026-05-05 14:00:00 +0200", "2026-05-05 14:30:00 +0200"),
        // Sleep ending at or after 18:00 belongs to the night ending the next day.
        .sleep("AsleepCore", "2026-05-05 19:00:00 +0200", "2026-05-05 19:45:00 +0200"),
        .sleep("AsleepCore", "2026-05-06 17:00:00 +0200", "2026-05-06 18:00:00 +0200"),
        // Time in bed from two devices: the union 22:00–07:10 is 9 h 10 min = 33 000 s.
        .sleep("InBed", "2026-05-04 22:00:00 +0200", "2026-05-05 07:00:00 +0200", from: .phone),
        .sleep("InBed", "2026-05-04 22:15:00 +0200", "2026-05-05 07:10:00 +0200"),
    ]

    @Test("sleep is the union of asleep intervals, on the day of waking, with an 18:00 cutoff")
    func sleepAcrossMidnight() throws {
        let result = try AppleHealthImport.ada().read(xml: HealthExportWriter.xml(Self.nights))
        // 05-05: 22:30–01:00 (9 000 s) + 01:20–06:30 (18 600 s) + the 14:00 nap (1 800 s) = 29 400 s;
        // the awake 20 minutes are not sleep.
        #expect(isClose(result.health(on: "2026-05-05")?.sleepDuration, 29_400))
        // 05-06: the 19:00–19:45 sleep on the 5th (2 700 s).
        #expect(isClose(result.health(on: "2026-05-06")?.sleepDuration, 2_700))
        // 05-07: 17:00–18:00 on the 6th ends at 18:00, so it is the next night's (3 600 s).
        #expect(isClose(result.health(on: "2026-05-07")?.sleepDuration, 3_600))
        #expect(result.timeInBed == [AppleHealthTimeInBed(day: Day("2026-05-05")!, seconds: 33_000)])
        #expect(result.summary.recordsSkipped == [.awake: 1])
        #expect(result.summary.recordsUsed == [.sleepDuration: 7, .timeInBed: 2])
    }

    // A traveller: the export's offsets change from +0100 (Berlin) to −0500 (New York).
    static let traveller: [SyntheticRecord] = [
        .steps(500, "2026-01-10 09:00:00 +0100", "2026-01-10 09:10:00 +0100"),  // 08:00Z on the 10th
        .steps(400, "2026-01-12 08:00:00 -0500", "2026-01-12 08:10:00 -0500"),  // 13:00Z on the 12th
        .steps(300, "2026-01-12 20:00:00 -0500", "2026-01-12 20:10:00 -0500"),  // 01:00Z on the 13th
        .sleep("AsleepCore", "2026-01-12 23:00:00 -0500", "2026-01-13 07:00:00 -0500"),  // 04:00Z → 12:00Z, 13th
        .hrv("70", at: "2026-01-12 21:00:00 -0500"),  // 02:00Z on the 13th
        // Middle of the interval: 2026-01-12 11:59:30 −0500 = 16:59:30Z.
        .restingHeartRate("62", "2026-01-12 00:00:00 -0500", "2026-01-12 23:59:00 -0500"),
    ]

    @Test("a traveller's records fall on the calendar days of the user's own time zone")
    func traveller() throws {
        let berlin = try AppleHealthImport.ada(in: "Europe/Berlin").read(xml: HealthExportWriter.xml(Self.traveller))
        // In Berlin: the New York evening (20:00 and 21:00 −0500) is already the 13th (02:00, 03:00);
        // the night ends at 13:00 Berlin time on the 13th; the resting rate's middle is 17:59:30 on the 12th.
        let ada = UserID("ada")!
        #expect(
            berlin.health == [
                HealthMetrics(user: ada, day: Day("2026-01-10")!, stepCount: 500),
                HealthMetrics(user: ada, day: Day("2026-01-12")!, restingHeartRate: 62, stepCount: 400),
                HealthMetrics(user: ada, day: Day("2026-01-13")!, hrv: 70, stepCount: 300, sleepDuration: 28_800),
            ])
        // A user living in New York sees the same records on New York's days.
        let newYork = try AppleHealthImport.ada(in: "America/New_York")
            .read(xml: HealthExportWriter.xml(Self.traveller))
        #expect(
            newYork.health == [
                HealthMetrics(user: ada, day: Day("2026-01-10")!, stepCount: 500),
                HealthMetrics(user: ada, day: Day("2026-01-12")!, hrv: 70, restingHeartRate: 62, stepCount: 700),
                HealthMetrics(user: ada, day: Day("2026-01-13")!, sleepDuration: 28_800),
            ])
    }

    // One walk seen by three sources (June, +0200), the iPhone's records first in the file.
    static let overlappingSteps: [SyntheticRecord] = [
        .steps(800, "2026-06-01 08:00:00 +0200", "2026-06-01 08:20:00 +0200", from: .phone),
        .steps(300, "2026-06-01 12:00:00 +0200", "2026-06-01 12:10:00 +0200", from: .phone),
        .steps(100, "2026-06-01 17:55:00 +0200", "2026-06-01 18:05:00 +0200", from: .phone),
        .steps(100, "2026-06-01 08:05:00 +0200", "2026-06-01 08:15:00 +0200", from: .app("Pedometer")),
        .steps(600, "2026-06-01 08:00:00 +0200", "2026-06-01 08:10:00 +0200"),
        .steps(7, "2026-06-01 18:00:00 +0200", "2026-06-01 18:00:00 +0200"),
    ]

    @Test("overlapping iPhone, Watch and app steps count once, the Watch first")
    func overlappingDevices() throws {
        let result = try AppleHealthImport.ada().read(xml: HealthExportWriter.xml(Self.overlappingSteps))
        // Watch: 600 (08:00–08:10) and 7 at the instant 18:00.
        // iPhone: 08:00–08:20 is half covered by the Watch, so 800 × 10/20 = 400; 12:00 is its own,
        //   300; 17:55–18:05 is not covered by an instant, 100.
        // App: 08:05–08:10 covered by the Watch, 08:10–08:15 by the iPhone: 0.
        // 607 + 400 + 300 + 100 = 1 407 (the plain sum would be 1 907).
        #expect(result.health(on: "2026-06-01")?.stepCount == 1407)
    }

    // What a person typed in the Health app (February, +0100), in both export shapes.
    static let entered: [SyntheticRecord] = [
        .steps(2000, "2026-02-02 10:00:00 +0100", "2026-02-02 11:00:00 +0100", from: .health)
            .enteredByPerson(.metadataEntry),
        .steps(5000, "2026-02-02 09:00:00 +0100", "2026-02-02 09:30:00 +0100"),
        SyntheticRecord.restingHeartRate("58", "2026-02-02 07:30:00 +0100", "2026-02-02 07:30:00 +0100")
            .enteredByPerson(.attribute),
        SyntheticRecord(
            type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", source: .watch, unit: "ms", value: "45",
            start: "2026-02-02 06:00:00 +0100", end: "2026-02-02 06:01:00 +0100",
            metadata: [("HKWasUserEntered", "0")]),
        .sleep("AsleepUnspecified", "2026-02-01 23:00:00 +0100", "2026-02-02 06:00:00 +0100", from: .health)
            .enteredByPerson(),
        .sleep("AsleepCore", "2026-02-01 23:30:00 +0100", "2026-02-02 06:30:00 +0100"),
    ]

    @Test("records a person typed become user entries, kept apart from the devices' values")
    func enteredByPerson() throws {
        let result = try AppleHealthImport.ada().read(xml: HealthExportWriter.xml(Self.entered))
        let day = Day("2026-02-02")!
        var typed = UserEntry(user: UserID("ada")!, day: day)
        typed.stepCount = .set(2000)
        typed.restingHeartRate = .set(58)
        typed.sleepDuration = .set(25_200)
        #expect(result.userEntered == [typed])
        // HKWasUserEntered = 0 is a device value.
        #expect(
            result.health == [
                HealthMetrics(user: UserID("ada")!, day: day, hrv: 45, stepCount: 5000, sleepDuration: 25_200)
            ])
        #expect(result.summary.recordsEnteredByPerson == 3)
    }

    @Test("HRV and resting heart rate are daily means")
    func dailyMeans() throws {
        let xml = HealthExportWriter.xml([
            .hrv("40", at: "2026-08-01 06:00:00 +0200"), .hrv("50", at: "2026-08-01 12:00:00 +0200"),
            .hrv("63", at: "2026-08-01 23:00:00 +0200"),
            .restingHeartRate("55", "2026-08-01 00:10:00 +0200", "2026-08-01 23:50:00 +0200"),
            .restingHeartRate("60", "2026-08-01 08:00:00 +0200", "2026-08-01 09:00:00 +0200"),
        ])
        let day = try #require(try AppleHealthImport.ada().read(xml: xml).health(on: "2026-08-01"))
        #expect(isClose(day.hrv, 51))  // (40 + 50 + 63) / 3
        #expect(isClose(day.restingHeartRate, 57.5))  // (55 + 60) / 2
    }

    static func step(
        _ value: String, unit: String = "count", start: String = "2026-07-01 08:00:00 +0200",
        end: String = "2026-07-01 08:10:00 +0200"
    ) -> SyntheticRecord {
        SyntheticRecord(
            type: "HKQuantityTypeIdentifierStepCount", source: .watch, unit: unit, value: value,
            start: start, end: end)
    }

    // July, +0200. Each record's fate in the comment beside it.
    static let rejects: [SyntheticRecord] = [
        .hrv("0.5", at: "2026-07-01 06:00:00 +0200"),  // below 1 ms: out of bounds
        .hrv("400", at: "2026-07-01 06:00:00 +0200"),  // above 300 ms: out of bounds
        .hrv("0.045", at: "2026-07-01 07:00:00 +0200", unit: "s"),  // 45 ms: used
        .hrv("45", at: "2026-07-01 07:00:00 +0200", unit: "count/min"),  // not a time: unit not understood
        .restingHeartRate("300", "2026-07-01 07:00:00 +0200", "2026-07-01 07:00:00 +0200"),  // out of bounds
        .restingHeartRate("1", "2026-07-01 07:00:00 +0200", "2026-07-01 07:00:00 +0200", unit: "count/s"),  // 60
        step("-5"),  // negative: out of bounds
        step("100", unit: "km"),  // unit not understood
        step("many"),  // value not understood
        step("100", start: "2026-02-30 08:00:00 +0100"),  // no 30 February: date not understood
        step("100", start: "yesterday"),  // date not understood
        step("100", start: "2026-07-01 09:00:00 +0200", end: "2026-07-01 08:00:00 +0200"),  // ends before start
        .sleep("Dreaming", "2026-07-01 01:00:00 +0200", "2026-07-01 02:00:00 +0200"),  // value not understood
        .sleep("Awake", "2026-07-01 02:00:00 +0200", "2026-07-01 02:10:00 +0200"),  // awake
        SyntheticRecord(
            type: "", source: .watch, unit: "count", value: "1", start: "2026-07-01 08:00:00 +0200",
            end: "2026-07-01 08:00:00 +0200"),  // no type
        // 150 000 + 60 000 = 210 000 steps on 07-02: each record is in bounds, the day is not; the
        // day keeps its HRV.
        step("150000", start: "2026-07-02 08:00:00 +0200", end: "2026-07-02 12:00:00 +0200"),
        step("60000", start: "2026-07-02 13:00:00 +0200", end: "2026-07-02 15:00:00 +0200"),
        .hrv("50", at: "2026-07-02 07:00:00 +0200"),
        // Two asleep records of 23 h and 15 h back to back: one 38-hour block on the night of 07-05.
        .sleep("AsleepCore", "2026-07-03 20:00:00 +0200", "2026-07-04 19:00:00 +0200"),
        .sleep("AsleepCore", "2026-07-04 19:00:00 +0200", "2026-07-05 10:00:00 +0200"),
        // One asleep record of 25 h: out of bounds on its own.
        .sleep("AsleepCore", "2026-07-06 00:00:00 +0200", "2026-07-07 01:00:00 +0200"),
    ]

    @Test("records and days outside DESIGN §2's bounds are counted by reason and not stored")
    func outOfBounds() throws {
        let result = try AppleHealthImport.ada().read(xml: HealthExportWriter.xml(Self.rejects))
        let ada = UserID("ada")!
        #expect(
            result.health == [
                HealthMetrics(user: ada, day: Day("2026-07-01")!, hrv: 45, restingHeartRate: 60),
                HealthMetrics(user: ada, day: Day("2026-07-02")!, hrv: 50),
            ])
        let summary = result.summary
        #expect(
            summary.recordsSkipped == [
                .outOfBounds(.hrv): 2, .unknownUnit(.hrv): 1, .outOfBounds(.restingHeartRate): 1,
                .outOfBounds(.stepCount): 1, .unknownUnit(.stepCount): 1, .unparsableValue(.stepCount): 1,
                .unparsableDate: 2, .invalidInterval: 1, .unparsableValue(.sleepDuration): 1, .awake: 1,
                .missingType: 1, .outOfBounds(.sleepDuration): 1,
            ])
        #expect(summary.recordsUsed == [.hrv: 2, .restingHeartRate: 1, .stepCount: 2, .sleepDuration: 2])
        #expect(summary.dayValuesOutOfBounds == [.stepCount: 1, .sleepDuration: 1])
        #expect(summary.recordsRead == Self.rejects.count)
        #expect(summary.recordsRead == summary.recordsUsedTotal + summary.recordsSkippedTotal)
    }

    @Test("the summary names counts and reasons, never a health value")
    func summaryText() throws {
        let summary = try AppleHealthImport.ada().read(xml: HealthExportWriter.xml(Self.rejects)).summary
        let text = summary.description
        #expect(text.contains("21 records read, 2 days (2026-07-01 to 2026-07-02)"))
        #expect(text.contains("records skipped: 14"))
        #expect(text.contains("  2 date not understood"))
        #expect(text.contains("  1 stepCount: unit not understood"))
        #expect(text.contains("day values out of bounds, not stored: 1 sleepDuration, 1 stepCount"))
        // The values of the records (45 ms, 60/min, 150000 steps …) appear nowhere.
        for value in ["45", "60", "150000", "210000"] { #expect(!text.contains(value)) }
    }

    @Test("the same records read the same in every export shape and at every chunk boundary")
    func shapesAndChunks() throws {
        // Steps first: the noisy shapes copy the first record into a Correlation, where counting it
        // would add the iPhone's 800 steps a second time.
        let records =
            Self.overlappingSteps + Self.springForward + Self.fallBack + Self.nights + Self.traveller
            + Self.entered
        let importer = AppleHealthImport.ada()
        let expected = try importer.read(xml: HealthExportWriter.xml(records)).withoutByteCount
        // 2 + 1 + 3 + 3 + 1 + 1 days from the six scenarios above, none shared.
        #expect(expected.health.count == 11)
        var generator = SeededGenerator(seed: 7)
        for round in 0..<24 {
            let style = ExportStyle.random(using: &generator)
            let xml = HealthExportWriter.xml(records, style: style, seed: UInt64(round))
            let chunk = Int.random(in: 1...97, using: &generator)
            var small = importer
            small.chunkSize = 64
            let reader = round % 2 == 0 ? small : importer
            let result = try reader.read(xml: xml, chunk: chunk).withoutByteCount
            #expect(result == expected, "round \(round), chunk \(chunk), style \(style)")
        }
    }
}
