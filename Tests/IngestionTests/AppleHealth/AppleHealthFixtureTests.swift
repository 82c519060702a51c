import Domain
import Foundation
import Testing

@testable import Ingestion

/// The three real exports in Fixtures/ (sources and licences in Fixtures/SOURCES.md), with their
/// daily values worked out by hand from the XML.
@Suite("Real Apple Health exports")
struct AppleHealthFixtureTests {
    @Test("an iOS 17 export: Watch sleep and iPhone time in bed land on the night they end")
    func alxdrcirilo() throws {
        // User in Europe/Amsterdam (UTC+1 in January). The file's offsets are +0200 (the exporting
        // phone's zone), so every instant is two hours before the written clock time:
        //   InBed (iPhone)      2024-01-01 00:55:28 +0200 → 00:56:53 +0200
        //                       = 2023-12-31 23:55:28 → 23:56:53 Amsterdam: ends after 18:00 on the 31st,
        //                       so it belongs to the night ending 2024-01-01; 85 s in bed.
        //   AsleepCore (Watch)  2024-01-01 03:27:53 +0200 → 03:40:23 +0200
        //                       = 2024-01-01 02:27:53 → 02:40:23 Amsterdam: before 18:00, 2024-01-01; 750 s.
        // The other six records (2 HeartRate, 2 ActiveEnergyBurned, 1 AppleExerciseTime,
        // 1 AppleStandTime) fill no DailyLog field.
        let result = try AppleHealthImport.ada(in: "Europe/Amsterdam")
            .read(path: fixture("alxdrcirilo-apple-health-parser-export.xml"))
        #expect(result.health == [HealthMetrics(user: UserID("ada")!, day: Day("2024-01-01")!, sleepDuration: 750)])
        #expect(result.timeInBed == [AppleHealthTimeInBed(day: Day("2024-01-01")!, seconds: 85)])
        #expect(result.userEntered.isEmpty)
        #expect(result.summary.recordsRead == 8)
        #expect(result.summary.recordsUsed == [.sleepDuration: 1, .timeInBed: 1])
        #expect(result.summary.recordsSkipped == [.typeNotImported: 6])
        #expect(
            result.summary.typesNotImported == [
                "HKQuantityTypeIdentifierHeartRate": 2, "HKQuantityTypeIdentifierActiveEnergyBurned": 2,
                "HKQuantityTypeIdentifierAppleExerciseTime": 1, "HKQuantityTypeIdentifierAppleStandTime": 1,
            ])
        #expect(result.summary.days == 1)
        #expect(result.summary.bytesRead == 3790)
    }

    @Test("an export with Apple's full inline DTD: ten step records sum to the day's steps")
    func tdda() throws {
        // User in Europe/London (BST, +0100, in September). Ten StepCount records from source
        // "Health", all on 2014-09-13 between 10:27:54 and 11:33:29 +0100, none overlapping:
        //   329 + 283 + 426 + 61 + 10 + 200 + 390 + 320 + 216 + 282 = 2517 steps.
        // Five DistanceWalkingRunning records are not imported; the ActivitySummary and Workout
        // elements are not records.
        let result = try AppleHealthImport.ada(in: "Europe/London")
            .read(path: fixture("tdda-applehealthdata-export6s3sample.xml"))
        #expect(result.health == [HealthMetrics(user: UserID("ada")!, day: Day("2014-09-13")!, stepCount: 2517)])
        #expect(result.userEntered.isEmpty)
        #expect(result.timeInBed.isEmpty)
        #expect(result.summary.recordsRead == 15)
        #expect(result.summary.recordsUsed == [.stepCount: 10])
        #expect(result.summary.typesNotImported == ["HKQuantityTypeIdentifierDistanceWalkingRunning": 5])
        #expect(result.summary.firstDay == Day("2014-09-13"))
    }

    @Test("an export without declaration, with end tags and a typed body mass, yields no days")
    func aleksi() throws {
        // Height (a third-party importer, custom metadata) and BodyMass typed in the Health app
        // ("Здоровье", HKWasUserEntered=1): neither type fills a DailyLog field.
        let result = try AppleHealthImport.ada(in: "Europe/Moscow")
            .read(path: fixture("aleksi-applehealth-testdata.xml"))
        #expect(result.health.isEmpty)
        #expect(result.userEntered.isEmpty)
        #expect(result.summary.recordsRead == 2)
        #expect(result.summary.recordsSkipped == [.typeNotImported: 2])
        #expect(result.summary.days == 0)
    }

    @Test("the scanner sees the records, sources and metadata of each fixture as a strict XML parser does")
    func scannerEvents() throws {
        let aleksi = try ScannedEvents.of(path: fixture("aleksi-applehealth-testdata.xml"))
        #expect(
            aleksi.map(\.name) == [
                "Record", "MetadataEntry", "MetadataEntry", "MetadataEntry", "/Record", "Record", "MetadataEntry",
                "/Record",
            ])
        #expect(aleksi[5].attributes["sourceName"] == "Здоровье")
        #expect(aleksi[5].attributes["type"] == "HKQuantityTypeIdentifierBodyMass")
        #expect(aleksi[6].attributes == ["key": "HKWasUserEntered", "value": "1"])

        let alxdrcirilo = try ScannedEvents.of(path: fixture("alxdrcirilo-apple-health-parser-export.xml"))
        let records = alxdrcirilo.filter { $0.name == "Record" }
        #expect(records.count == 8)
        // `&lt;` and `&gt;` decoded, the apostrophe kept as written.
        #expect(records[0].attributes["device"]?.hasPrefix("<<HKDevice: 0x3012772a0>, name:Apple Watch") == true)
        #expect(records[0].attributes["sourceName"] == "Alexandre's Apple Watch")
        #expect(records[6].attributes["sourceName"] == "Alexandre's iPhone")

        let tdda = try ScannedEvents.of(path: fixture("tdda-applehealthdata-export6s3sample.xml"))
        // Self-closing records: each start is followed by its end; the DTD, Workout and
        // ActivitySummary report nothing.
        #expect(tdda.map(\.name) == Array(repeating: ["Record", "/Record"], count: 15).flatMap { $0 })
    }
}
