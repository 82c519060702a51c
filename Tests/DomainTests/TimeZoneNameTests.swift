import Domain
import Foundation
import TestSupport
import Testing

/// Every name and alias in the machine's tzdata is a zone (DESIGN §4); offsets and abbreviations,
/// which Foundation would also take, are not.
@Suite("Time zone names")
struct TimeZoneNameTests {
    /// The zones (`Z` lines) and links (`L` lines, the `backward` aliases among them) of the
    /// installed tzdata, from the compiler input it ships (https://data.iana.org/time-zones/tz-link.html).
    static func tzdataNames() throws -> [String] {
        let text = try String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            switch fields.first {
            case "Z": return fields.count > 1 ? String(fields[1]) : nil
            case "L": return fields.count > 2 ? String(fields[2]) : nil
            default: return nil
            }
        }
    }

    @Test("Asia/Kolkata is a zone, as its old name Asia/Calcutta is, and both keep India's offset")
    func kolkata() throws {
        // Foundation on Linux lists Asia/Calcutta but not Asia/Kolkata, and the lookup used to accept
        // only the listed names.
        let kolkata = try #require(TimeZone.iana("Asia/Kolkata"))
        let calcutta = try #require(TimeZone.iana("Asia/Calcutta"))
        let instant = Date(iso: "2026-03-15T12:00:00Z")
        #expect(kolkata.secondsFromGMT(for: instant) == 19_800)
        #expect(calcutta.secondsFromGMT(for: instant) == 19_800)
        #expect(kolkata.ianaName == "Asia/Kolkata")
    }

    @Test("every zone and alias in the installed tzdata is accepted")
    func everyTzdataName() throws {
        let names = try Self.tzdataNames()
        #expect(names.count > 500, "tzdata.zi should list every zone and link")
        let refused = names.filter { TimeZone.iana($0) == nil }
        #expect(refused.isEmpty, "refused: \(refused.joined(separator: ", "))")
        #expect(names.contains("US/Pacific") && names.contains("Europe/Kiev"))
    }

    @Test(
        "offsets, abbreviations and paths are not zone names",
        arguments: [
            "CET+1", "UTC+1", "GMT+1", "PST", "", "/Europe/Berlin", "Europe/Berlin/", "Europe/../Europe/Berlin",
            "../zoneinfo/Europe/Berlin", "posix/Europe/Berlin", "right/Europe/Berlin", "posixrules", "localtime",
            "Europe", "zone.tab", "Mars/Olympus_Mons",
        ])
    func refused(name: String) {
        #expect(TimeZone.iana(name) == nil)
    }
}
