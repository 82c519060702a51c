import Foundation

/// Where a store lives, read from `--db` / `PIPELINE_DB`: a `postgresql://` or `postgres://` URL, or
/// libpq's keyword/value string (`host=db.internal dbname=pipeline user=pipeline`), is a PostgreSQL
/// server (with libpq's environment — `PGHOST`, `PGUSER`, `PGPASSWORD`, `PGPASSFILE`, `PGSSLMODE` —
/// filling what it leaves out); anything else is an SQLite file.
enum StorageAddress: Sendable, Hashable {
    case sqlite(path: String)
    /// A URL or a keyword/value string, as libpq reads either.
    case postgresql(url: String)

    init(_ text: String) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
            || StorageAddress.isKeywordValueString(text)
        {
            self = .postgresql(url: text)
        } else {
            self = .sqlite(path: text)
        }
    }

    /// Whether `text` is libpq's keyword/value form: its first word is one of libpq's connection keywords,
    /// then `=`. (A file named so is still reachable as `./host=…`.)
    /// https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING
    static func isKeywordValueString(_ text: String) -> Bool {
        guard let first = KeywordValue.pairs(in: text).first else { return false }
        return StorageAddress.libpqKeywords.contains(first.keyword)
    }

    /// libpq 15's connection keywords. https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-PARAMKEYWORDS
    static let libpqKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "channel_binding", "connect_timeout",
        "client_encoding", "options", "application_name", "fallback_application_name", "keepalives",
        "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication",
        "gssencmode", "sslmode", "requiressl", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslrootcert",
        "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version",
        "krbsrvname", "gsslib", "service", "target_session_attrs",
    ]

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

    /// Passwords the address carries (as written and percent-decoded, or unquoted), so that a server's or
    /// libpq's message that echoes one can be scrubbed.
    var secrets: [String] {
        guard case .postgresql(let url) = self else { return [] }
        var secrets: [String] = []
        if let range = StorageAddress.userPasswordRange(in: url) { secrets.append(String(url[range])) }
        if let range = StorageAddress.passwordParameterRange(in: url) { secrets.append(String(url[range])) }
        for pair in KeywordValue.pairs(in: url) where StorageAddress.isSecret(pair.keyword) {
            secrets += [String(url[pair.value]), pair.unquoted]
        }
        if let password = ProcessInfo.processInfo.environment["PGPASSWORD"] { secrets.append(password) }
        secrets += secrets.compactMap { $0.removingPercentEncoding }
        return Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// Replaces every secret of this address in `message` by `***`.
    func scrub(_ message: String) -> String {
        secrets.reduce(message) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    static func redacting(_ url: String) -> String {
        if isKeywordValueString(url) {
            var text = url
            for pair in KeywordValue.pairs(in: url).reversed() where isSecret(pair.keyword) {
                text.replaceSubrange(pair.value, with: "***")
            }
            return text
        }
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

    /// Keywords whose value is a secret: the password, and the passphrase of the client's key.
    private static func isSecret(_ keyword: String) -> Bool {
        keyword == "password" || keyword == "sslpassword"
    }
}

/// The pairs of a libpq keyword/value string, read as libpq reads them: `keyword = value` separated by
/// white space, a value either single-quoted (`'a b'`, with `\'` and `\\` inside) or running to the next
/// white space (with `\` escaping the next character). Reading stops at the first thing that is not a
/// pair; libpq refuses such a string anyway.
enum KeywordValue {
    struct Pair {
        var keyword: String
        /// The value as written, quotes included: what a redaction replaces.
        var value: Range<String.Index>
        /// The value as libpq takes it.
        var unquoted: String
    }

    static func pairs(in text: String) -> [Pair] {
        var pairs: [Pair] = []
        var index = text.startIndex
        func skipSpace() {
            while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) }
        }
        while true {
            skipSpace()
            guard index < text.endIndex else { return pairs }
            let keywordStart = index
            while index < text.endIndex, !text[index].isWhitespace, text[index] != "=" {
                index = text.index(after: index)
            }
            let keyword = String(text[keywordStart..<index])
            skipSpace()
            guard !keyword.isEmpty, index < text.endIndex, text[index] == "=" else { return pairs }
            index = text.index(after: index)
            skipSpace()
            let valueStart = index
            let isQuoted = index < text.endIndex && text[index] == "'"
            if isQuoted { index = text.index(after: index) }
            var unquoted = ""
            while index < text.endIndex, isQuoted ? text[index] != "'" : !text[index].isWhitespace {
                if text[index] == "\\", text.index(after: index) < text.endIndex {
                    index = text.index(after: index)
                }
                unquoted.append(text[index])
                index = text.index(after: index)
            }
            // The closing quote.
            if isQuoted, index < text.endIndex { index = text.index(after: index) }
            pairs.append(Pair(keyword: keyword, value: valueStart..<index, unquoted: unquoted))
        }
    }
}
