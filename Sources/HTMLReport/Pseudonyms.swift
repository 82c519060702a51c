public import Domain

/// The names a report shows for users: their ids, or with `--redact` stable pseudonyms.
///
/// A pseudonym is `person-` and twelve hex digits of the FNV-1a hash of the id, mixed by
/// SplitMix64's finalizer so that ids one character apart (`user-00001`, `user-00002`) get unrelated
/// pseudonyms that keep no order. The same user
/// has the same pseudonym in every report of any database, and reports made at different times can
/// be compared. It hides ids from a reader of the report; it is not a secret — anyone who can guess
/// an id can compute its pseudonym, so a report stays personal data.
public struct Pseudonyms: Sendable {
    public let redact: Bool
    private let names: [UserID: String]

    /// Names for `users`; two ids whose hashes collide get `-2`, `-3` … in id order.
    public init(users: [UserID], redact: Bool) {
        self.redact = redact
        var names: [UserID: String] = [:]
        if redact {
            var taken: [String: Int] = [:]
            for id in users.sorted(by: { $0.rawValue < $1.rawValue }) {
                let base = Self.pseudonym(of: id)
                let seen = taken[base, default: 0] + 1
                taken[base] = seen
                names[id] = seen == 1 ? base : "\(base)-\(seen)"
            }
        }
        self.names = names
    }

    /// What the report calls `id`.
    public func name(of id: UserID) -> String {
        redact ? names[id] ?? Self.pseudonym(of: id) : id.rawValue
    }

    /// The pseudonym of one id, before collisions are resolved.
    public static func pseudonym(of id: UserID) -> String {
        // https://prng.di.unimi.it/splitmix64.c: every input bit flips about half the output bits.
        var hash = FNV1a.hash("pipeline report pseudonym\u{0}" + id.rawValue)
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        let hex = String(hash >> 16, radix: 16)
        return "person-" + String(repeating: "0", count: 12 - hex.count) + hex
    }
}
