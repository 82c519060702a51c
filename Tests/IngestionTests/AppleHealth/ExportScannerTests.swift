import Foundation
import FoundationXML
import Testing

@testable import Ingestion

/// What the scanner reports, as names and decoded attributes: `Record`, `MetadataEntry`, `/Record`.
struct ScannedEvents: ExportEventHandler {
    struct Event: Hashable {
        var name: String
        var attributes: [String: String] = [:]
    }

    var events: [Event] = []

    mutating func beginRecord(_ attributes: TagAttributes) {
        events.append(Event(name: "Record", attributes: Self.dictionary(attributes)))
    }

    mutating func metadataEntry(_ attributes: TagAttributes) {
        events.append(Event(name: "MetadataEntry", attributes: Self.dictionary(attributes)))
    }

    mutating func endRecord() {
        events.append(Event(name: "/Record"))
    }

    static func dictionary(_ attributes: TagAttributes) -> [String: String] {
        var result: [String: String] = [:]
        for index in 0..<attributes.count {
            result[String(decoding: attributes.name(index), as: UTF8.self)] = attributes.string(index)
        }
        return result
    }

    static func of(path: String) throws -> [Event] {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        let scanner = ExportScanner(input: FileDescriptorInput(descriptor: handle.fileDescriptor, name: path))
        var handler = ScannedEvents()
        try scanner.scan(into: &handler)
        return handler.events
    }

    /// Scans `xml` handed over `chunk` bytes at a time into a buffer of `buffer` bytes (grown as needed).
    static func of(
        xml: String, chunk: Int = 1 << 20, buffer: Int = 1 << 20, maximumMarkup: Int = 64 << 20
    ) throws(AppleHealthError) -> [Event] {
        try of(bytes: Array(xml.utf8), chunk: chunk, buffer: buffer, maximumMarkup: maximumMarkup)
    }

    static func of(
        bytes: [UInt8], chunk: Int = 1 << 20, buffer: Int = 1 << 20, maximumMarkup: Int = 64 << 20
    ) throws(AppleHealthError) -> [Event] {
        let scanner = ExportScanner(
            input: MemoryInput(bytes, chunk: chunk), chunkSize: buffer, maximumMarkup: max(buffer, maximumMarkup))
        var handler = ScannedEvents()
        try scanner.scan(into: &handler)
        return handler.events
    }
}

/// The same events from Foundation's libxml2-based `XMLParser`, the reference for what a strict
/// parser reads. Only for documents without a DTD: with one, `XMLParser` crashes on this platform.
final class ReferenceEvents: NSObject, XMLParserDelegate {
    private(set) var events: [ScannedEvents.Event] = []
    private var path: [String] = []

    static func of(xml: String) -> [ScannedEvents.Event]? {
        let parser = XMLParser(data: Data(xml.utf8))
        let delegate = ReferenceEvents()
        parser.delegate = delegate
        return withExtendedLifetime(delegate) { parser.parse() ? delegate.events : nil }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        if path.count == 1, elementName == "Record" {
            events.append(ScannedEvents.Event(name: "Record", attributes: attributes))
        } else if path.count == 2, path[1] == "Record", elementName == "MetadataEntry" {
            events.append(ScannedEvents.Event(name: "MetadataEntry", attributes: attributes))
        }
        path.append(elementName)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        path.removeLast()
        if path.count == 1, elementName == "Record" { events.append(ScannedEvents.Event(name: "/Record")) }
    }
}

@Suite("Export scanner")
struct ExportScannerTests {
    struct Malformed: CustomTestStringConvertible, Sendable {
        var label: String
        var bytes: [UInt8]
        var error: AppleHealthError
        var testDescription: String { label }

        init(_ label: String, _ xml: String, line: Int, column: Int, _ problem: String) {
            self.label = label
            bytes = Array(xml.utf8)
            error = .malformedXML(line: line, column: column, problem: problem)
        }

        init(_ label: String, bytes: [UInt8], line: Int, column: Int, _ problem: String) {
            self.label = label
            self.bytes = bytes
            error = .malformedXML(line: line, column: column, problem: problem)
        }

        init(_ label: String, bytes: [UInt8], _ error: AppleHealthError) {
            self.label = label
            self.bytes = bytes
            self.error = error
        }
    }

    /// Each column is counted by hand in the comment beside it (characters, 1-based).
    static let malformed: [Malformed] = [
        Malformed("empty file", "", line: 1, column: 1, "the file is empty"),
        // Two lines of CSV, no '<' at all: the end is line 3, column 1.
        Malformed(
            "a CSV file", "date,steps\n2026-01-01,500\n", line: 3, column: 1,
            "no XML element found; an export.xml starts with <HealthData>"),
        Malformed(
            "cut inside a tag", "<HealthData>\n <Record type=\"x\" value=\"1\"", line: 2, column: 28,
            "the file ends inside a tag: it was cut short"),  // ` <Record type="x" value="1"` is 27 characters
        Malformed(
            "cut after a record", "<HealthData>\n <Record type=\"a\"/>\n", line: 3, column: 1,
            "the file ends inside <HealthData>: it was cut short"),
        Malformed(
            "cut inside a comment", "<HealthData>\n<!-- unfinished", line: 2, column: 16,
            "the file ends inside a tag: it was cut short"),  // `<!-- unfinished` is 15 characters
        Malformed(
            "mismatched end tag", "<HealthData>\n <Record type=\"a\">\n </Workout>\n</HealthData>\n", line: 3,
            column: 2, "</Workout> does not close the open <Record>"),
        Malformed(
            "end tag with nothing open", "<HealthData/>\n</HealthData>", line: 2, column: 1,
            "</HealthData> closes no open element"),
        Malformed(
            "unquoted value", "<HealthData>\n<Record type=a/>\n</HealthData>", line: 2, column: 14,
            "the value of type must be in quotes"),  // `<Record type=` is 13 characters
        Malformed(
            "missing equals sign", "<HealthData>\n<Record type \"a\"/>", line: 2, column: 14,
            "expected '=' after the attribute type"),
        Malformed(
            "'<' in a value", "<HealthData>\n<Record type=\"a<b\"/>", line: 2, column: 16,
            "'<' is not allowed in an attribute value (a quote may be missing)"),  // `<Record type="a` is 15
        Malformed(
            "unknown entity", "<HealthData>\n<Record sourceName=\"Tom&nbsp;s\"/>", line: 2, column: 24,
            "unknown entity or invalid character reference; an export uses only &lt; &gt; &amp; &quot; &apos; "
                + "and &#…; references"),  // `<Record sourceName="Tom` is 23 characters
        Malformed(
            "reference to a surrogate", "<HealthData>\n<Record value=\"&#xD800;\"/>", line: 2, column: 16,
            "unknown entity or invalid character reference; an export uses only &lt; &gt; &amp; &quot; &apos; "
                + "and &#…; references"),
        Malformed(
            "duplicate attribute", "<HealthData>\n<Record type=\"a\" type=\"b\"/>", line: 2, column: 18,
            "the attribute type appears twice"),  // `<Record type="a" ` is 17 characters
        Malformed(
            "attributes without a space", "<HealthData>\n<Record type=\"a\"value=\"1\"/>", line: 2, column: 17,
            "expected a space before the attribute"),
        Malformed(
            "second root", "<HealthData/>\n<HealthData/>", line: 2, column: 1, "a second root element <HealthData>"),
        Malformed(
            "'<' followed by a space", "<HealthData>\n< Record/>", line: 2, column: 2,
            "expected an element name after '<', found a space"),
        // Columns count characters: `<Record sourceName="Здоровье" type=` is 35 characters (43 bytes).
        Malformed(
            "column after Cyrillic text", "<HealthData>\n<Record sourceName=\"Здоровье\" type=x/>", line: 2,
            column: 36, "the value of type must be in quotes"),
        Malformed(
            "DOCTYPE inside the root", "<HealthData>\n<!DOCTYPE HealthData>", line: 2, column: 1,
            "a DOCTYPE after the root element"),
        Malformed(
            "gzip-compressed file", bytes: [0x1F, 0x8B, 0x08, 0x00],
            .malformedXML(line: 1, column: 1, problem: "the file is gzip-compressed; decompress it and pass export.xml")
        ),
        Malformed(
            "UTF-16 file", bytes: [0xFF, 0xFE, 0x3C, 0x00],
            .malformedXML(line: 1, column: 1, problem: "the file is UTF-16; an export.xml is UTF-8")),
        Malformed("zip archive on a stream", bytes: Array("PK\u{03}\u{04}rest".utf8), .zipOnStandardInput),
        Malformed(
            "clinical document",
            bytes: Array("<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"/>".utf8),
            .notAnExport(rootElement: "ClinicalDocument")),
    ]

    static let controlRule = "XML allows no control character but tab, line feed and carriage return"
    static let notUTF8 = "an export.xml is UTF-8 text"

    /// What is not text: NUL bytes, control characters, invalid UTF-8 and unknown references, wherever
    /// they are. Each column is counted by hand in the comment beside it (characters, 1-based).
    static let notText: [Malformed] = [
        Malformed(  // `<Record value="1` is 16 characters
            "a NUL byte in a value", "<HealthData>\n<Record value=\"1\u{0}\"/>", line: 2, column: 17,
            "a NUL byte in the value of value; \(controlRule)"),
        Malformed(
            "a NUL byte between tags", "<HealthData>\n \u{0}<Record/>", line: 2, column: 2,
            "a NUL byte in the text between tags; \(controlRule)"),
        Malformed(  // `<!-- a` is 6 characters
            "a NUL byte in a comment", "<HealthData>\n<!-- a\u{0} -->", line: 2, column: 7,
            "a NUL byte in a comment; \(controlRule)"),
        Malformed(  // `<?xml version="1.0"` is 19 characters
            "a NUL byte in a processing instruction", "<?xml version=\"1.0\"\u{0}?>\n<HealthData/>", line: 1,
            column: 20, "a NUL byte in a processing instruction; \(controlRule)"),
        Malformed(  // `<Record sourceName="a` is 21 characters
            "an escape sequence in a value", "<HealthData>\n<Record sourceName=\"a\u{1B}[31m\"/>", line: 2,
            column: 22, "the control character U+001B in the value of sourceName; \(controlRule)"),
        Malformed(
            "a bell between tags", "<HealthData>\n\u{07}</HealthData>", line: 2, column: 1,
            "the control character U+0007 in the text between tags; \(controlRule)"),
        Malformed(  // `<!DOCTYPE HealthData [<!ENTITY x "` is 34 characters
            "a control character in the DTD", "<!DOCTYPE HealthData [<!ENTITY x \"\u{1}\">]>\n<HealthData/>",
            line: 1, column: 35, "the control character U+0001 in the DOCTYPE; \(controlRule)"),
        Malformed(  // `<Rec` is 4 characters
            "invalid UTF-8 in an element name", bytes: Array("<HealthData>\n<Rec".utf8) + [0xFF] + Array("ord/>".utf8),
            line: 2, column: 5, "invalid UTF-8 in an element name: \(notUTF8)"),
        Malformed(  // `<Record t` is 9 characters; 0xC3 needs a continuation byte, not '('
            "invalid UTF-8 in an attribute name",
            bytes: Array("<HealthData>\n<Record t".utf8) + [0xC3, 0x28] + Array("=\"a\"/>".utf8), line: 2, column: 10,
            "invalid UTF-8 in an attribute name: \(notUTF8)"),
        Malformed(  // `</Health` is 8 characters; the three-byte character is cut after two
            "invalid UTF-8 in an end tag's name",
            bytes: Array("<HealthData>\n</Health".utf8) + [0xE2, 0x82] + Array(">".utf8), line: 2, column: 9,
            "invalid UTF-8 in an element name: \(notUTF8)"),
        Malformed(  // `<Record value="` is 15 characters; C0 AF is an overlong '/'
            "an overlong form in a value",
            bytes: Array("<HealthData>\n<Record value=\"".utf8) + [0xC0, 0xAF, 0x22, 0x2F, 0x3E],
            line: 2, column: 16, "invalid UTF-8 in the value of value: \(notUTF8)"),
        Malformed(
            "an encoded surrogate between tags", bytes: Array("<HealthData>\n".utf8) + [0xED, 0xA0, 0x80, 0x3C, 0x2F],
            line: 2, column: 1, "invalid UTF-8 in the text between tags: \(notUTF8)"),
        Malformed(
            "U+FFFF in a value",
            bytes: Array("<HealthData>\n<Record value=\"".utf8) + [0xEF, 0xBF, 0xBF, 0x22, 0x2F, 0x3E],
            line: 2, column: 16, "the noncharacter U+FFFF in the value of value"),
        Malformed(
            "cut inside a character", bytes: Array("<HealthData>\n".utf8) + [0xE2, 0x82], line: 2, column: 2,
            "the file ends inside a character or a reference: it was cut short"),
        Malformed(
            "an unknown entity between tags", "<HealthData>\n&bogus;</HealthData>", line: 2, column: 1,
            entityProblem),
        Malformed(
            "a reference to a control character between tags", "<HealthData>\n&#27;</HealthData>", line: 2,
            column: 1, entityProblem),
        Malformed(  // `<Record value="` is 15 characters
            "a reference to a control character in a value", "<HealthData>\n<Record value=\"&#x1B;\"/>", line: 2,
            column: 16, entityProblem),
    ]

    @Test("what is not text is rejected with its line and column, wherever the chunks break", arguments: notText)
    func rejectsWhatIsNotText(_ example: Malformed) {
        rejectsMalformed(example)
    }

    @Test("multi-byte characters, known references and the whitespace XML allows are accepted in every place")
    func acceptsText() throws {
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Здоровье 😀 -->\n<HealthData locale=\"ru_RU\">\r\n"
            + "\t&#x2019; é &amp;<Record sourceName=\"Здоровье 😀\ta\" type=\"a&#x1F600;\"/>\n"
            + "<Größe/><![CDATA[ 😀 ]]></HealthData>\n"
        for (chunk, buffer) in [(1 << 20, 1 << 20), (1, 16), (2, 16), (3, 32)] {
            let events = try ScannedEvents.of(xml: xml, chunk: chunk, buffer: buffer)
            #expect(
                events == [
                    ScannedEvents.Event(name: "Record", attributes: ["sourceName": "Здоровье 😀 a", "type": "a😀"]),
                    ScannedEvents.Event(name: "/Record"),
                ], "chunk \(chunk)")
        }
    }

    @Test("malformed input is rejected with its line and column, wherever the chunks break", arguments: malformed)
    func rejectsMalformed(_ example: Malformed) {
        for (chunk, buffer) in [(1 << 20, 1 << 20), (1, 16), (2, 16), (7, 32), (3, 1 << 20)] {
            #expect(throws: example.error, "chunk \(chunk), buffer \(buffer)") {
                try ScannedEvents.of(bytes: example.bytes, chunk: chunk, buffer: buffer)
            }
        }
    }

    @Test("an error deep in a long file names its line, after many buffer refills")
    func errorAfterRefills() {
        // Line 1 is the root, lines 2–2001 hold 2000 records, line 2002 opens a record whose
        // attribute on line 2003 has an unknown entity at column 8 (`  bad="` is 7 characters).
        let record = "<Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"1\"/>\n"
        let xml = "<HealthData>\n" + String(repeating: record, count: 2000) + "<Record type=\"x\"\n  bad=\"&x;\"/>\n"
        for (chunk, buffer) in [(1 << 20, 1 << 20), (1000, 4096), (13, 64)] {
            #expect(throws: AppleHealthError.malformedXML(line: 2003, column: 8, problem: Self.entityProblem)) {
                try ScannedEvents.of(xml: xml, chunk: chunk, buffer: buffer)
            }
        }
    }

    static let entityProblem =
        "unknown entity or invalid character reference; an export uses only &lt; &gt; &amp; &quot; &apos; and "
        + "&#…; references"

    @Test("markup longer than the limit stops the scan instead of growing memory without bound")
    func boundedMarkup() {
        let xml = "<HealthData>\n<!-- " + String(repeating: "x", count: 500) + " -->\n</HealthData>"
        #expect(
            throws: AppleHealthError.malformedXML(
                line: 2, column: 1, problem: "one piece of markup is longer than 256 bytes")
        ) {
            try ScannedEvents.of(xml: xml, chunk: 64, buffer: 64, maximumMarkup: 256)
        }
        #expect((try? ScannedEvents.of(xml: xml, chunk: 64, buffer: 64, maximumMarkup: 1024)) == [])
    }

    @Test("a UTF-8 byte order mark is accepted")
    func byteOrderMark() throws {
        let events = try ScannedEvents.of(
            bytes: [0xEF, 0xBB, 0xBF] + Array("<HealthData><Record type=\"a\"/></HealthData>".utf8))
        #expect(events.map(\.name) == ["Record", "/Record"])
    }

    @Test("records, metadata and decoded attributes match a strict XML parser on random documents")
    func matchesXMLParser() throws {
        var generator = SeededGenerator(seed: 20_260_329)
        for round in 0..<200 {
            let xml = Self.randomDocument(using: &generator)
            let reference = try #require(ReferenceEvents.of(xml: xml), "XMLParser rejected document \(round)")
            let chunk = [1, 3, 17, 1 << 20][round % 4]
            let scanned = try ScannedEvents.of(xml: xml, chunk: chunk, buffer: round % 2 == 0 ? 16 : 1 << 20)
            #expect(scanned == reference, "document \(round):\n\(xml)")
        }
    }

    /// A well-formed document (no DTD) with records, metadata, nested elements that must not be
    /// reported, comments, and attribute values full of references, quotes and line breaks.
    static func randomDocument(using generator: inout SeededGenerator) -> String {
        func pick<T>(_ options: [T]) -> T { options.randomElement(using: &generator)! }
        func space() -> String { pick([" ", "\n", "\t", "  ", "\r\n "]) }
        func attributes(_ names: [String]) -> String {
            var out = ""
            for name in names.shuffled(using: &generator).prefix(Int.random(in: 0...names.count, using: &generator)) {
                let quote = pick(["\"", "'"])
                var value = ""
                for _ in 0..<Int.random(in: 0...6, using: &generator) {
                    value += pick([
                        "a", "Z", "0", " ", "é", "💤", "’", "\t", "\n", "\r\n", "&amp;", "&lt;", "&gt;", "&quot;",
                        "&apos;", "&#x2019;", "&#233;", "&#10;", "&#x9;", "&#13;", ">", quote == "\"" ? "'" : "\"",
                    ])
                }
                out += space() + name + pick(["", " "]) + "=" + pick(["", "\n"]) + quote + value + quote
            }
            return out
        }
        let recordNames = ["type", "sourceName", "unit", "value", "startDate", "endDate", "device", "a-b.c_d"]
        var xml = pick(["", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"]) + "<HealthData locale=\"en\">\n"
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                xml += " <Record" + attributes(recordNames) + space() + "/>\n"
            case 1:
                xml += " <Record" + attributes(recordNames) + ">\n"
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    xml +=
                        "  <MetadataEntry" + attributes(["key", "value"]) + pick(["/>", "></MetadataEntry>"]) + "\n"
                }
                xml +=
                    "  <HeartRateVariabilityMetadataList><InstantaneousBeatsPerMinute bpm=\"60\"/>"
                    + "<MetadataEntry key=\"deep\" value=\"1\"/></HeartRateVariabilityMetadataList>\n </Record>\n"
            case 2:
                xml +=
                    " <Correlation type=\"c\"><Record" + attributes(recordNames) + "/><MetadataEntry key=\"k\" "
                    + "value=\"v\"/></Correlation>\n"
            case 3:
                xml +=
                    " <Workout" + attributes(["duration", "sourceName"]) + "><MetadataEntry key=\"k\" value=\"v\"/>"
                    + "</Workout>\n"
            case 4:
                xml += pick([" <!-- a <Record/> in a comment -->\n", " <?pi data?>\n", " <![CDATA[ <Record/> ]]>\n"])
            default:
                xml +=
                    " <Record" + attributes(recordNames) + space() + ">" + space() + "</Record" + pick(["", " "])
                    + ">\n"
            }
        }
        return xml + "</HealthData>" + pick(["", "\n", "\n<!-- trailing comment -->\n"])
    }
}
