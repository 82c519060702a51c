import Domain
import Foundation
import TestSupport
import Testing

@testable import Ingestion

/// `RecordDecoder` on its own: what each record type decodes to, what it refuses and how it says so. (The fast
/// path of entry and health lines is checked against the full one in `DayLineDecoderTests`.)
@Suite("Record decoder")
struct RecordDecoderTests {
    static let now = Date(timeIntervalSince1970: 1_772_000_000)
    let decoder = RecordDecoder(defaultEnqueuedAt: RecordDecoderTests.now)

    func decoded(_ line: String) -> Result<InputRecord, FieldError> {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(FieldError) in try decoder.decode(line: UnsafeBufferPointer(buffer)) }
        }
    }

    /// The refusal of `line`; fails the test when it decodes.
    func refusal(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> FieldError? {
        guard case .failure(let error) = decoded(line) else {
            Issue.record("decoded \(line), expected a refusal", sourceLocation: sourceLocation)
            return nil
        }
        return error
    }

    static let alice = UserID("alice")!
    static let day = Day("2026-03-01")!

    @Test("each record type decodes to its value, an absent key unchanged and a null one cleared")
    func recordTypes() throws {
        let user = try decoded(#"{"type":"user","user":"alice","timeZone":"Europe/Berlin"}"#).get()
        #expect(user == .user(UserUpdate(id: Self.alice, timeZone: TimeZone.iana("Europe/Berlin"))))

        var settings = SettingsUpdate(user: Self.alice)
        settings.changes[.engagementNotifications] = .some(.bool(false))
        settings.changes[.reminderHour] = .some(nil)
        #expect(
            try decoded(#"{"type":"settings","user":"alice","engagementNotifications":false,"reminderHour":null}"#)
                .get() == .settings(settings))

        var entry = UserEntry(user: Self.alice, day: Self.day)
        entry.symptomSeverity = .set(4)
        entry.notes = .clear
        entry.hrv = .set(48.5)
        #expect(
            try decoded(
                #"{"type":"entry","user":"alice","day":"2026-03-01","symptomSeverity":4,"notes":null,"hrv":48.5}"#
            )
            .get() == .entry(entry))

        var metrics = HealthMetrics(user: Self.alice, day: Self.day)
        metrics.stepCount = 8042
        // A null reading is no reading: health never clears a value.
        #expect(
            try decoded(#"{"type":"health","user":"alice","day":"2026-03-01","stepCount":8042,"hrv":null}"#).get()
                == .health(metrics))
    }

    @Test("a watch item keeps its payload byte for byte and its time, or the decoder's")
    func watchItems() throws {
        let unknown = try decoded(
            #"{"type":"watch","user":"alice","kind":"futureKind","payload":{"n":9007199254740993, "x" : [1,2]}}"#
        ).get()
        #expect(
            unknown
                == .watch(
                    WatchSubmission(
                        user: Self.alice, kind: "futureKind", payload: #"{"n":9007199254740993, "x" : [1,2]}"#,
                        enqueuedAt: Self.now)))
        let timed = try decoded(
            #"{"type":"watch","user":"alice","kind":"symptomLog","payload":{"day":"2026-03-01","symptomSeverity":5},"enqueuedAt":"2026-03-01T08:00:00Z"}"#
        ).get()
        guard case .watch(let item) = timed else { throw RecordDecoderTestError.notAWatchItem }
        #expect(item.enqueuedAt == Date(iso: "2026-03-01T08:00:00Z"))
        #expect(item.payload == #"{"day":"2026-03-01","symptomSeverity":5}"#)
    }

    @Test(
        "a refused line names the field and the problem, never the value",
        arguments: [
            (#"{"user":"alice","day":"2026-03-01","mood":3}"#, "type"),
            (#"{"type":"diary","user":"alice"}"#, "type"),
            (#"{"type":7,"user":"alice"}"#, "type"),
            (#"{"type":"entry","user":"al ice","day":"2026-03-01","mood":3}"#, "user"),
            (#"{"type":"entry","user":"alice","day":"2026-02-30","mood":3}"#, "day"),
            (#"{"type":"entry","user":"alice","day":"2026-03-01","symptomSeverity":11}"#, "symptomSeverity"),
            (#"{"type":"entry","user":"alice","day":"2026-03-01","mood":2.5}"#, "mood"),
            (#"{"type":"entry","user":"alice","day":"2026-03-01"}"#, "entry"),
            (#"{"type":"entry","user":"alice","day":"2026-03-01","symptom_severity":4}"#, "symptom_severity"),
            (#"{"type":"entry","user":"alice","day":"2026-03-01","hrv 48.2":1}"#, "key 4"),
            (#"{"type":"health","user":"alice","day":"2026-03-01","mood":3}"#, "mood"),
            (#"{"type":"health","user":"alice","day":"2026-03-01","hrv":null}"#, "health"),
            (#"{"type":"settings","user":"alice","reminderHour":25}"#, "reminderHour"),
            (#"{"type":"settings","user":"alice"}"#, "settings"),
            (#"{"type":"user","user":"alice","timeZone":"Mars/Olympus"}"#, "timeZone"),
            (
                #"{"type":"watch","user":"alice","kind":"symptomLog","payload":{"day":"2026-03-01","mood":4}}"#,
                "payload.mood"
            ),
            (#"{"type":"watch","user":"alice","kind":"symptomLog","payload":[1]}"#, "payload"),
            (
                #"{"type":"watch","user":"alice","kind":"symptomLog","payload":{},"enqueuedAt":"yesterday"}"#,
                "payload.day"
            ),
            (
                #"{"type":"watch","user":"alice","kind":"futureKind","payload":{},"enqueuedAt":"yesterday"}"#,
                "enqueuedAt"
            ),
            (#"[{"type":"entry"}]"#, "json"),
            (#"{"type":"entry","user":"alice",}"#, "json"),
        ])
    func refusals(line: String, field: String) throws {
        let error = try #require(refusal(line))
        #expect(error.field == field)
        for secret in ["11", "2.5", "25", "48.2", "Olympus", "al ice", "diary"] where line.contains(secret) {
            #expect(!error.problem.contains(secret), "\(error) repeats a value of \(line)")
        }
    }

    @Test("the first unknown key is reported, by name when it looks like a field and by position otherwise")
    func unknownKeys() throws {
        let named = try #require(refusal(#"{"type":"user","user":"alice","zone":"UTC","other":1}"#))
        #expect(named.field == "zone")
        let positional = try #require(
            refusal(
                #"{"type":"watch","user":"alice","kind":"healthCheckIn","payload":{"day":"2026-03-01","mood 3":1}}"#))
        #expect(positional.field == "payload.key 2")
    }
}

enum RecordDecoderTestError: Error {
    case notAWatchItem
}
