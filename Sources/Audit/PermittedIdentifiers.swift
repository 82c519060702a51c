import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `BGTaskSchedulerPermittedIdentifiers` of one `Info.plist`, with the line of each entry.
struct PermittedIdentifiers: Sendable {
    struct Entry: Sendable {
        var value: String
        var line: Int
    }

    var path: String
    /// Whether the plist has the key at all.
    var declaresKey: Bool
    var entries: [Entry]
    /// The plist's `UIBackgroundModes` (`location`, `audio`, `fetch` …), empty when it has none.
    var backgroundModes: [String] = []
    /// The plist of an app extension (it has an `NSExtension` key: a widget, a notification service): the background
    /// tasks it may run are the app's, listed in the app's own Info.plist.
    var isExtension = false
    /// The plist of a framework or a loadable bundle (`CFBundlePackageType` `FMWK` or `BNDL`: a library, a plugin, a
    /// test bundle), not of an app: its background modes are not the app's.
    var isLibraryBundle = false
    /// Whether the plist has a `UIApplicationSceneManifest`: the app's UI lives in scenes, whose delegates, not the app
    /// delegate, hear of moves to and from the background.
    var declaresSceneManifest = false
    /// The plist lies in an Xcode project's folder whose targets all name their Info.plist, and none names this one (a
    /// copy left beside the app's, an exported tree): no bundle is built with it.
    var isNamedByNoTarget = false

    /// Reads an XML property list (or, without line numbers, a binary one).
    /// Returns `nil` with a reason when the file is not a property list.
    static func read(path: String, bytes: [UInt8]) -> Result<PermittedIdentifiers, ReadFailure> {
        let data = Data(bytes)
        if bytes.starts(with: Array("bplist".utf8)) {
            return readBinary(path: path, data: data)
        }
        let reader = PlistXMLReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else {
            let reason = parser.parserError.map { "not a property list: \($0.localizedDescription)" }
            return .failure(ReadFailure(reason: reason ?? "not a property list"))
        }
        return .success(
            PermittedIdentifiers(
                path: path, declaresKey: reader.declaresKey, entries: reader.entries,
                backgroundModes: reader.backgroundModes, isExtension: reader.isExtension,
                isLibraryBundle: reader.packageType.map(libraryPackageTypes.contains) ?? false,
                declaresSceneManifest: reader.declaresSceneManifest))
    }

    /// A framework's, a bundle's (a test bundle's) and an XCFramework's: never an app's.
    private static let libraryPackageTypes: Set<String> = ["FMWK", "BNDL", "XFWK"]

    private static func readBinary(path: String, data: Data) -> Result<PermittedIdentifiers, ReadFailure> {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            let dictionary = plist as? [String: Any]
        else { return .failure(ReadFailure(reason: "not a readable property list")) }
        let modes = (dictionary["UIBackgroundModes"] as? [Any] ?? []).compactMap { $0 as? String }
        let isExtension = dictionary["NSExtension"] != nil
        let isLibraryBundle = (dictionary["CFBundlePackageType"] as? String).map(libraryPackageTypes.contains) ?? false
        let values = dictionary["BGTaskSchedulerPermittedIdentifiers"]
        let strings = (values as? [Any] ?? []).compactMap { $0 as? String }
        return .success(
            PermittedIdentifiers(
                path: path, declaresKey: values != nil, entries: strings.map { Entry(value: $0, line: 1) },
                backgroundModes: modes, isExtension: isExtension, isLibraryBundle: isLibraryBundle,
                declaresSceneManifest: dictionary["UIApplicationSceneManifest"] != nil))
    }

    /// Whether `identifier` is allowed by `pattern`: equal, or matching where the pattern has a build-setting
    /// reference `$(…)`/`${…}` (expanded by Xcode, so any text) or a `*` (iOS 26 wildcard identifiers).
    static func matches(_ identifier: String, pattern: String) -> Bool {
        if identifier == pattern { return true }
        guard pattern.contains("$(") || pattern.contains("${") || pattern.contains("*") else { return false }
        return glob(identifier[...], pieces(of: pattern)[...])
    }

    /// The literal texts of `pattern` between its wildcards (`*`, `$(…)`, `${…}`); one piece when it has none.
    private static func pieces(of pattern: String) -> [String] {
        var pieces: [String] = []
        var literal = ""
        var index = pattern.startIndex
        while index < pattern.endIndex {
            let character = pattern[index]
            if character == "*" {
                pieces.append(literal)
                literal = ""
                index = pattern.index(after: index)
            } else if character == "$", pattern.index(after: index) < pattern.endIndex,
                pattern[pattern.index(after: index)] == "(" || pattern[pattern.index(after: index)] == "{"
            {
                let closer: Character = pattern[pattern.index(after: index)] == "(" ? ")" : "}"
                pieces.append(literal)
                literal = ""
                index = pattern[index...].firstIndex(of: closer).map { pattern.index(after: $0) } ?? pattern.endIndex
            } else {
                literal.append(character)
                index = pattern.index(after: index)
            }
        }
        pieces.append(literal)
        return pieces
    }

    /// For an identifier built at run time from an interpolated literal as written (`"\(bundle).refresh"`), the
    /// pattern it fits, each interpolation a `*` (`*.refresh`); `nil` for any other expression, which could be
    /// anything.
    static func pattern(of text: String) -> String? {
        guard text.count >= 2, text.first == "\"", text.last == "\"", !text.hasPrefix("\"\"\"") else { return nil }
        let body = Array(text.dropFirst().dropLast())
        var pattern = ""
        var index = 0
        while index < body.count {
            if body[index] == "\\", index + 1 < body.count, body[index + 1] == "(" {
                var depth = 0
                index += 1
                while index < body.count {
                    if body[index] == "(" { depth += 1 }
                    if body[index] == ")" {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    index += 1
                }
                pattern.append("*")
            } else if body[index] == "\\" || body[index] == "*" || body[index] == "$" {
                return nil
            } else {
                pattern.append(body[index])
            }
            index += 1
        }
        return pattern
    }

    /// The longest literal text of `pattern` between its wildcards (all of it when it has none): what code that
    /// names the identifier must contain.
    static func longestLiteral(of pattern: String) -> String {
        pieces(of: pattern).max { $0.count < $1.count } ?? pattern
    }

    /// Whether some identifier could fit both patterns: a necessary condition, that the literal text before the
    /// first wildcard of each is a prefix of the other's, and the text after the last wildcard a suffix.
    static func mayOverlap(_ lhs: String, _ rhs: String) -> Bool {
        let left = pieces(of: lhs)
        let right = pieces(of: rhs)
        if left.count == 1 { return matches(lhs, pattern: rhs) }
        if right.count == 1 { return matches(rhs, pattern: lhs) }
        let prefixes = left[0].hasPrefix(right[0]) || right[0].hasPrefix(left[0])
        let suffixes =
            left[left.count - 1].hasSuffix(right[right.count - 1])
            || right[right.count - 1].hasSuffix(left[left.count - 1])
        return prefixes && suffixes
    }

    /// `pieces` are literal texts separated by wildcards that each match one or more characters.
    private static func glob(_ text: Substring, _ pieces: ArraySlice<String>) -> Bool {
        guard let first = pieces.first else { return text.isEmpty }
        guard text.hasPrefix(first) else { return false }
        let rest = text.dropFirst(first.count)
        let remaining = pieces.dropFirst()
        if remaining.isEmpty { return rest.isEmpty }
        var start = rest.startIndex
        while start < rest.endIndex {
            start = rest.index(after: start)
            if glob(rest[start...], remaining) { return true }
        }
        return false
    }
}

struct ReadFailure: Error, Sendable {
    var reason: String
}

/// Streams a plist's XML and keeps the `<string>` entries of the arrays after `<key>BGTaskSchedulerPermittedIdentifiers`
/// and `<key>UIBackgroundModes`.
private final class PlistXMLReader: NSObject, XMLParserDelegate {
    var declaresKey = false
    var entries: [PermittedIdentifiers.Entry] = []
    var backgroundModes: [String] = []
    var isExtension = false
    var declaresSceneManifest = false
    /// `CFBundlePackageType`, when the plist says it.
    var packageType: String?
    /// The root dictionary's key read last.
    private var topLevelKey = ""
    /// Whether the array being read is `UIBackgroundModes` (else `BGTaskSchedulerPermittedIdentifiers`).
    private var readingModes = false
    private var depth = 0
    private var text = ""
    private var keyDepth = -1
    private var arrayDepth = -1
    private var expectArray = false
    private var stringLine = 0

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        text = ""
        if elementName == "array", expectArray {
            arrayDepth = depth
        } else if elementName == "string" {
            stringLine = parser.lineNumber
        }
        if elementName != "key" { expectArray = false }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "key" {
            // Only top-level keys of the root dictionary (plist > dict > key) name Info.plist settings.
            let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if depth == 3 { topLevelKey = key }
            if depth == 3, key == "NSExtension" { isExtension = true }
            if depth == 3, key == "UIApplicationSceneManifest" { declaresSceneManifest = true }
            if depth == 3, key == "BGTaskSchedulerPermittedIdentifiers" || key == "UIBackgroundModes" {
                readingModes = key == "UIBackgroundModes"
                if !readingModes { declaresKey = true }
                expectArray = true
                keyDepth = depth
            }
        } else if elementName == "string", depth == 3, topLevelKey == "CFBundlePackageType" {
            packageType = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else if elementName == "string", arrayDepth >= 0, depth == arrayDepth + 1 {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if readingModes {
                backgroundModes.append(value)
            } else {
                entries.append(PermittedIdentifiers.Entry(value: value, line: stringLine))
            }
        } else if elementName == "array", depth == arrayDepth {
            arrayDepth = -1
        }
        depth -= 1
        text = ""
    }
}
