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

    /// The identifier spelled by `bytes` (UTF-8), checked before a string is made of them; `nil` as `init(_:)`.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard UserID.isValid(utf8: bytes) else { return nil }
        rawValue = String(decoding: bytes, as: UTF8.self)
    }

    public static func isValid(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isValid(utf8: $0) }
    }

    private static func isValid(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard (1...64).contains(bytes.count) else { return false }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            default:
                return false
            }
        }
        return true
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

    /// A zone from an IANA identifier such as `Europe/Berlin`, or any alias of one the machine's
    /// tzdata has (`Asia/Calcutta` for `Asia/Kolkata`, `US/Pacific`); `nil` for offsets (`UTC+1`) and
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
///
/// Foundation's list is not the whole of tzdata on Linux: it leaves out names such as `Asia/Kolkata`
/// that `TimeZone(identifier:)` still resolves. A name is a zone when Foundation lists it or when
/// tzdata has a compiled zone file for it (zic writes one for every zone and every link, the
/// `backward` aliases included); Foundation alone would also take offsets and abbreviations
/// (`GMT+1`, `PST`) that are no IANA name.
private final class IANAZones: Sendable {
    static let shared = IANAZones()

    /// Where tzdata is installed: `TZDIR` if set (as the C library reads it), else the usual place.
    private let directory = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
    private let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers)
    private let zones = Locked<[String: TimeZone]>([:])

    func zone(named identifier: String) -> TimeZone? {
        if let zone = zones.withLock({ $0[identifier] }) { return zone }
        guard known.contains(identifier) || hasZoneFile(identifier), let zone = TimeZone(identifier: identifier)
        else { return nil }
        zones.withLock { $0[identifier] = zone }
        return zone
    }

    /// Whether tzdata has a compiled zone for `name`: a TZif file at its path. Only names shaped like
    /// IANA's are looked up, so a name cannot reach outside the directory, and the tree's own
    /// artefacts (`posix/` and `right/` copies, `posixrules`, `localtime`) are no zone names.
    private func hasZoneFile(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64, !name.hasPrefix("/"), !name.hasSuffix("/"),
            name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty && $0 != ".." }),
            name.utf8.allSatisfy(IANAZones.isNameByte),
            !["posixrules", "localtime"].contains(name), !name.hasPrefix("posix/"), !name.hasPrefix("right/"),
            let file = FileHandle(forReadingAtPath: directory + "/" + name)
        else { return false }
        defer { try? file.close() }
        // https://www.rfc-editor.org/rfc/rfc8536#section-3.1: every TZif file begins with "TZif".
        return (try? file.read(upToCount: 4)) == Data("TZif".utf8)
    }

    /// Letters, digits and `/ _ - + .`: the characters of every IANA name (Theory.html, "Names of
    /// timezones"), `Etc/GMT+5` and `America/Port-au-Prince` included.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"),
            UInt8(ascii: "+"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
