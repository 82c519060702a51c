public import Foundation

/// A user's identifier: 1–64 characters of `[A-Za-z0-9._-]`.
///
/// The character set keeps identifiers safe in file names, log lines and URLs; anything else is
/// rejected at the boundary rather than escaped everywhere.
public struct UserID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// `nil` when `rawValue` is empty, longer than 64 characters, or has a character outside
    /// `[A-Za-z0-9._-]`.
    public init?(_ rawValue: String) {
        guard UserID.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: UserID, rhs: UserID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// A person whose days are logged, with the IANA time zone that decides which calendar day an
/// instant belongs to.
public struct User: Hashable, Sendable {
    public var id: UserID
    public var timeZone: TimeZone

    public init(id: UserID, timeZone: TimeZone = .utc) {
        self.id = id
        self.timeZone = timeZone
    }

    /// The user's today at `instant`.
    public func today(at instant: Date) -> Day {
        Day(containing: instant, in: timeZone)
    }
}

extension TimeZone {
    /// UTC, which Foundation always has.
    public static let utc = TimeZone(identifier: "UTC")!

    /// A zone from an IANA identifier such as `Europe/Berlin`; `nil` for offsets (`UTC+1`) and
    /// unknown names, which would make "today" ambiguous. `UTC`, `Etc/UTC` and `GMT` all name UTC.
    public static func iana(_ identifier: String) -> TimeZone? {
        if ["UTC", "Etc/UTC", "GMT", "Etc/GMT"].contains(identifier) { return .utc }
        return IANAZones.shared.zone(named: identifier)
    }

    /// The IANA name to show and store; Foundation calls UTC "GMT".
    public var ianaName: String {
        identifier == "GMT" ? "UTC" : identifier
    }
}

/// The zones the machine's tzdata knows, looked up once: every stored user's zone is read by name,
/// and Foundation builds its list of known identifiers anew on each call.
private final class IANAZones: Sendable {
    static let shared = IANAZones()

    private let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers)
    private let zones = Locked<[String: TimeZone]>([:])

    func zone(named identifier: String) -> TimeZone? {
        if let zone = zones.withLock({ $0[identifier] }) { return zone }
        guard known.contains(identifier), let zone = TimeZone(identifier: identifier) else { return nil }
        zones.withLock { $0[identifier] = zone }
        return zone
    }
}
