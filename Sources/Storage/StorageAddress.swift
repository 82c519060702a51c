import Foundation

/// Where a store lives, read from `--db` / `PIPELINE_DB`: a `postgresql://` or `postgres://` URL is
/// a PostgreSQL server (libpq's URI form, with its environment — `PGHOST`, `PGUSER`, `PGPASSWORD`,
/// `PGPASSFILE`, `PGSSLMODE` — filling what the URL leaves out); anything else is an SQLite file.
enum StorageAddress: Sendable, Hashable {
    case sqlite(path: String)
    case postgresql(url: String)

    init(_ text: String) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") {
            self = .postgresql(url: text)
        } else {
            self = .sqlite(path: text)
        }
    }

    var backend: StorageBackend {
        switch self {
        case .sqlite: .sqlite
        case .postgresql: .postgresql
        }
    }

    /// The address fit to print: a password in the URL's user part or in a `password=` parameter
    /// is replaced by `***`.
    var displayText: String {
        switch self {
        case .sqlite(let path): path
        case .postgresql(let url): StorageAddress.redacting(url)
        }
    }

    /// Passwords the address carries (as written and percent-decoded), so that a server's or libpq's
    /// message that echoes one can be scrubbed.
    var secrets: [String] {
        guard case .postgresql(let url) = self else { return [] }
        var secrets: [String] = []
        if let range = StorageAddress.userPasswordRange(in: url) { secrets.append(String(url[range])) }
        if let range = StorageAddress.passwordParameterRange(in: url) { secrets.append(String(url[range])) }
        if let password = ProcessInfo.processInfo.environment["PGPASSWORD"] { secrets.append(password) }
        secrets += secrets.compactMap { $0.removingPercentEncoding }
        return Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// Replaces every secret of this address in `message` by `***`.
    func scrub(_ message: String) -> String {
        secrets.reduce(message) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    static func redacting(_ url: String) -> String {
        var text = url
        if let range = passwordParameterRange(in: text) { text.replaceSubrange(range, with: "***") }
        if let range = userPasswordRange(in: text) { text.replaceSubrange(range, with: "***") }
        return text
    }

    /// The password of `scheme://user:password@host…`: after the first `:` of the part before the
    /// last `@` of the authority.
    private static func userPasswordRange(in url: String) -> Range<String.Index>? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let authorityEnd = url[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
        let authority = url[schemeEnd.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return nil
        }
        let start = url.index(after: colon)
        return start < at ? start..<at : nil
    }

    /// The value of a `password=` query parameter.
    private static func passwordParameterRange(in url: String) -> Range<String.Index>? {
        guard let query = url.firstIndex(of: "?") else { return nil }
        var searchStart = url.index(after: query)
        while let match = url.range(of: "password=", options: .caseInsensitive, range: searchStart..<url.endIndex) {
            let before = match.lowerBound == url.index(after: query) ? "?" : url[url.index(before: match.lowerBound)]
            if before == "?" || before == "&" {
                let end = url[match.upperBound...].firstIndex(of: "&") ?? url.endIndex
                return match.upperBound < end ? match.upperBound..<end : nil
            }
            searchStart = match.upperBound
        }
        return nil
    }
}
