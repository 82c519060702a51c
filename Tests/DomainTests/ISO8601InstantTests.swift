import Domain
import Foundation
import TestSupport
import Testing

@Suite("Parsing --now")
struct ISO8601InstantTests {
    /// Reference instants come from Foundation's `ISO8601DateFormatter` (through `Date(iso:)`), an
    /// independent implementation of the same format.
    @Test(
        "whole-second instants in UTC and with offsets",
        arguments: [
            "2026-03-01T08:00:00Z", "2026-03-01T09:00:00+01:00", "2026-03-01T02:30:00-05:30",
            "2024-02-29T23:59:59Z", "1999-12-31T23:59:59+14:00", "2026-03-01t08:00:00z",
        ])
    func wholeSeconds(text: String) throws {
        let parsed = try #require(ISO8601Instant.date(from: text))
        #expect(parsed == Date(iso: text.uppercased()))
    }

    @Test("fractional seconds keep every digit typed, beyond milliseconds")
    func fractionalSeconds() throws {
        let base = Date(iso: "2026-03-01T08:00:00Z").timeIntervalSince1970
        let half = try #require(ISO8601Instant.date(from: "2026-03-01T08:00:00.5Z"))
        #expect(abs(half.timeIntervalSince1970 - (base + 0.5)) < 1e-6)
        let micro = try #require(ISO8601Instant.date(from: "2026-03-01T09:00:00.000250+01:00"))
        #expect(abs(micro.timeIntervalSince1970 - (base + 0.000_25)) < 1e-6)
    }

    @Test(
        "anything but a full date, time and zone is rejected",
        arguments: [
            "", "yesterday", "2026-03-01", "2026-03-01T08:00:00", "2026-03-01 08:00:00Z", "2026-03-01T08:00Z",
            "2026-02-30T08:00:00Z", "2026-3-1T08:00:00Z", "2026-03-01T24:00:00Z", "2026-03-01T08:60:00Z",
            "2026-03-01T08:00:60Z", "2026-03-01T08:00:00+0100", "2026-03-01T08:00:00+24:00",
            " 2026-03-01T08:00:00Z", "2026-03-01T08:00:00Zjunk", "2026-03-01T08:00:00.Z", "1772352000",
        ])
    func rejected(text: String) {
        #expect(ISO8601Instant.date(from: text) == nil)
    }
}
