// One file for one type: the scanner is a hand-written XML tokenizer over a sliding buffer whose parts (buffer,
// markup, characters) share its cursor and state, kept private; splitting it would widen what each part may touch.

import Domain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the scanner reports: each `Record` that is a direct child of `HealthData`, and that record's
/// direct `MetadataEntry` children. Everything else — `Me`, `Workout`, `ActivitySummary`, the copies of
/// records nested in a `Correlation` (Apple's DTD: they "also appear as top-level records"), HRV beat
/// lists — is checked for well-formedness and otherwise skipped.
protocol ExportEventHandler {
    /// A `<Record>` start tag. `attributes` is valid only during the call.
    mutating func beginRecord(_ attributes: TagAttributes)
    /// A `<MetadataEntry>` directly inside the current record. `attributes` is valid only during the call.
    mutating func metadataEntry(_ attributes: TagAttributes)
    /// The end of the record begun last (`/>` or `</Record>`).
    mutating func endRecord()
}

/// A streaming reader for the XML of an Apple Health export.
///
/// `XMLParser` is not used: on this platform (FoundationXML, Swift 6.3) it crashes with a delegate
/// set as soon as the document has the `<!ATTLIST … #REQUIRED>` declarations of Apple's inline DTD,
/// traps on invalid UTF-8 in a name (swift-corelibs-foundation#5534), and was slow even on a DTD-free
/// export with a do-nothing delegate (docs/benchmarks.md). This scanner reads the XML 1.0 subset an export uses —
/// the XML declaration, an internal DTD subset, comments, processing instructions, CDATA sections,
/// elements, attributes in either quote style and any order, the predefined entities and character
/// references — and rejects what is not well-formed with the line and column. It does not expand
/// entities declared in a DTD (Apple's declares none) and ignores character data (an export has
/// only whitespace between tags).
///
/// Memory: one buffer of `chunkSize` bytes, grown only while one piece of markup is longer than the
/// buffer (up to `maximumMarkup`), plus a stack of open element names.
final class ExportScanner<Input: ExportInput> {
    private var input: Input
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private let maximumMarkup: Int
    /// Bytes of `buffer` that hold input.
    private var filled = 0
    private(set) var bytesRead: Int64 = 0
    /// Line breaks in the input already dropped from the front of the buffer.
    private var linesBefore = 0
    /// Characters after the last dropped line break, for the column of an error on that line.
    private var columnBefore = 0
    private var progress: ((Int64) -> Void)?

    /// Byte classes, one lookup per byte in the hot loops.
    private let classes: UnsafeMutablePointer<UInt8>
    private static var valueSpecial: UInt8 { 1 }
    private static var nameCharacter: UInt8 { 2 }
    private static var nameStart: UInt8 { 4 }
    private static var space: UInt8 { 8 }
    /// Ends a run of plain character data: `<`, `&`, a control character, a byte of a multi-byte character.
    private static var textSpecial: UInt8 { 16 }

    private var rootOpened = false
    private var rootClosed = false
    /// Names of the open elements, end to end; `openLengths` says where each starts.
    private var openNames: [UInt8] = []
    private var openLengths: [Int] = []
    /// A `Record` directly under the root is open.
    private var recordOpen = false
    private var slots: UnsafeMutablePointer<AttributeSlot>
    private var slotCapacity = 16
    private var slotCount = 0

    init(input: Input, chunkSize: Int = 1 << 20, maximumMarkup: Int = 64 << 20) {
        precondition(chunkSize >= 16 && maximumMarkup >= chunkSize, "the buffer must hold a tag")
        self.input = input
        self.capacity = chunkSize
        self.maximumMarkup = maximumMarkup
        buffer = .allocate(capacity: chunkSize)
        slots = .allocate(capacity: slotCapacity)
        classes = .allocate(capacity: 256)
        classes.initialize(repeating: 0, count: 256)
        // Every control character and every byte of a multi-byte character stops the fast loops over
        // values and text, to be checked: XML allows no control character but tab, line feed and carriage
        // return (XML 1.0 §2.2), and the text must be UTF-8.
        for byte in Array("\"'<&".utf8) + Array(0...0x1F) + Array(0x80...0xFF) {
            classes[Int(byte)] |= Self.valueSpecial
        }
        for byte in Array("<&".utf8) + Array(0...0x1F) + Array(0x80...0xFF) where !" \t\n\r".utf8.contains(byte) {
            classes[Int(byte)] |= Self.textSpecial
        }
        for byte in " \t\n\r".utf8 { classes[Int(byte)] |= Self.space }
        for byte in 0...255 {
            let ascii = UInt8(byte)
            let letter = (65...90).contains(byte) || (97...122).contains(byte) || byte >= 0x80
            if letter || ascii == UInt8(ascii: "_") || ascii == UInt8(ascii: ":") {
                classes[byte] |= Self.nameStart | Self.nameCharacter
            }
            if (48...57).contains(byte) || ascii == UInt8(ascii: "-") || ascii == UInt8(ascii: ".") {
                classes[byte] |= Self.nameCharacter
            }
        }
    }

    deinit {
        buffer.deallocate()
        slots.deallocate()
        classes.deallocate()
    }

    /// Reads the whole input, reporting records to `handler`.
    ///
    /// `progress` is called with the bytes read so far after each chunk. Not reentrant; call once.
    func scan<Handler: ExportEventHandler>(
        into handler: inout Handler, progress: ((Int64) -> Void)? = nil
    ) throws(AppleHealthError) {
        self.progress = progress
        var position = try start()
        while true {
            if position >= filled {
                guard try refill(keeping: filled) else { break }
                position = 0
                continue
            }
            // Character data: an export has only whitespace here, and nothing reads it, but it must be text.
            let (textEnd, complete) = try characterData(from: position)
            guard complete else {
                guard try refill(keeping: textEnd) else {
                    throw failure(at: filled, "the file ends inside a character or a reference: it was cut short")
                }
                position = 0
                continue
            }
            position = textEnd
            guard position < filled else { continue }
            if let next = try markup(at: position, handler: &handler) {
                position = next
            } else {
                guard try refill(keeping: position) else {
                    throw failure(at: filled, "the file ends inside a tag: it was cut short")
                }
                position = 0
            }
        }
        guard rootOpened else {
            throw failure(
                at: filled,
                bytesRead == 0
                    ? "the file is empty" : "no XML element found; an export.xml starts with <HealthData>")
        }
        if let open = openName(openLengths.count - 1) {
            throw failure(at: filled, "the file ends inside <\(PrintableExcerpt.of(open))>: it was cut short")
        }
    }

    // MARK: - Buffer

    /// Fills the buffer for the first time and recognises what is not an XML export at all.
    private func start() throws(AppleHealthError) -> Int {
        while filled < 4, try refill(keeping: 0) {}
        func startsWith(_ bytes: [UInt8]) -> Bool {
            filled >= bytes.count && bytes.indices.allSatisfy { buffer[$0] == bytes[$0] }
        }
        if startsWith([0x50, 0x4B, 0x03, 0x04]) { throw .zipOnStandardInput }
        if startsWith([0x1F, 0x8B]) {
            throw failure(at: 0, "the file is gzip-compressed; decompress it and pass export.xml")
        }
        if startsWith([0xFE, 0xFF]) || startsWith([0xFF, 0xFE]) {
            throw failure(at: 0, "the file is UTF-16; an export.xml is UTF-8")
        }
        // A UTF-8 byte order mark is allowed and carries no content.
        return startsWith([0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Drops the bytes before `keep`, then reads more after what is kept; `false` at the end of input.
    /// Grows the buffer when the kept markup already fills it.
    private func refill(keeping keep: Int) throws(AppleHealthError) -> Bool {
        account(upTo: keep)
        let remaining = filled - keep
        if keep > 0, remaining > 0 { memmove(buffer, buffer + keep, remaining) }
        filled = remaining
        if filled == capacity {
            guard capacity < maximumMarkup else {
                let limit = maximumMarkup >= 1 << 20 ? "\(maximumMarkup >> 20) MB" : "\(maximumMarkup) bytes"
                throw failure(at: 0, "one piece of markup is longer than \(limit)")
            }
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: min(capacity * 2, maximumMarkup))
            larger.update(from: buffer, count: filled)
            buffer.deallocate()
            buffer = larger
            capacity = min(capacity * 2, maximumMarkup)
        }
        let count = try input.read(into: buffer + filled, count: capacity - filled)
        guard count > 0 else { return false }
        filled += count
        bytesRead += Int64(count)
        progress?(bytesRead)
        return true
    }

    /// Counts the line breaks and trailing characters of `buffer[0..<end]` before they are dropped.
    private func account(upTo end: Int) {
        let lines = lineBreaks(from: 0, to: end)
        guard lines > 0 else {
            columnBefore += characters(from: 0, to: end)
            return
        }
        var last = end - 1
        while buffer[last] != 10 { last -= 1 }
        linesBefore += lines
        columnBefore = characters(from: last + 1, to: end)
    }

    /// Line feeds in `buffer[start..<end]`. Every byte of the input passes here once; `memchr`
    /// (vectorized in glibc) jumps from one line feed to the next, faster than looking at each byte
    /// in Swift.
    private func lineBreaks(from start: Int, to end: Int) -> Int {
        var count = 0
        var index = start
        while index < end, let hit = memchr(buffer + index, 10, end - index) {
            count += 1
            index = hit.assumingMemoryBound(to: UInt8.self) - buffer + 1
        }
        return count
    }

    /// UTF-8 scalars in `buffer[start..<end]` (bytes that are not continuation bytes).
    private func characters(from start: Int, to end: Int) -> Int {
        var count = 0
        for index in start..<end { count &+= buffer[index] & 0xC0 != 0x80 ? 1 : 0 }
        return count
    }

    /// A malformed-XML error at `offset` in the buffer, with its 1-based line and column.
    private func failure(at offset: Int, _ problem: String) -> AppleHealthError {
        var line = linesBefore + 1
        var lastBreak = -1
        for index in 0..<offset where buffer[index] == 10 {
            line += 1
            lastBreak = index
        }
        let column = (lastBreak < 0 ? columnBefore : 0) + characters(from: lastBreak + 1, to: offset) + 1
        return .malformedXML(line: line, column: column, problem: problem)
    }

    // MARK: - Markup

    /// Parses the markup that starts with the `<` at `start`. Returns the offset after it, or `nil`
    /// when the buffer ends first (nothing has been reported then; the caller reads on and retries).
    private func markup<Handler: ExportEventHandler>(
        at start: Int, handler: inout Handler
    ) throws(AppleHealthError) -> Int? {
        guard start + 1 < filled else { return nil }
        switch buffer[start + 1] {
        case UInt8(ascii: "/"):
            return try endTag(at: start, handler: &handler)
        case UInt8(ascii: "?"):
            return try checkedCharacters(from: start, to: find("?>", from: start + 2), in: "a processing instruction")
        case UInt8(ascii: "!"):
            switch (has("<!--", at: start), has("<![CDATA[", at: start), has("<!DOCTYPE", at: start)) {
            case (true?, _, _):
                return try checkedCharacters(from: start, to: find("-->", from: start + 4), in: "a comment")
            case (_, true?, _):
                return try checkedCharacters(from: start, to: find("]]>", from: start + 9), in: "a CDATA section")
            case (_, _, true?):
                guard !rootOpened else { throw failure(at: start, "a DOCTYPE after the root element") }
                return try checkedCharacters(from: start, to: doctype(from: start + 9), in: "the DOCTYPE")
            case (false?, false?, false?):
                throw failure(at: start, "unknown markup after '<!'")
            default:
                return nil  // too few bytes yet to tell which
            }
        default:
            return try startTag(at: start, handler: &handler)
        }
    }

    /// Whether `literal` is at `offset`: `nil` when the buffer ends before it could tell.
    private func has(_ literal: StaticString, at offset: Int) -> Bool? {
        let length = literal.utf8CodeUnitCount
        let available = min(length, filled - offset)
        guard memcmp(buffer + offset, literal.utf8Start, available) == 0 else { return false }
        return available == length ? true : nil
    }

    /// The offset just after the first `terminator` at or after `offset`, or `nil` if the buffer has none.
    private func find(_ terminator: StaticString, from offset: Int) -> Int? {
        let first = Int32(terminator.utf8Start.pointee)
        let length = terminator.utf8CodeUnitCount
        var from = offset
        while from + length <= filled {
            guard let hit = memchr(buffer + from, first, filled - from) else { return nil }
            let index = hit.assumingMemoryBound(to: UInt8.self) - buffer
            guard index + length <= filled else { return nil }
            if memcmp(buffer + index, terminator.utf8Start, length) == 0 { return index + length }
            from = index + 1
        }
        return nil
    }

    /// The offset after the closing quote of the quoted text opening at `offset`, `nil` if not in the buffer.
    private func afterQuote(at offset: Int) -> Int? {
        guard let hit = memchr(buffer + offset + 1, Int32(buffer[offset]), filled - offset - 1) else { return nil }
        return hit.assumingMemoryBound(to: UInt8.self) - buffer + 1
    }

    /// Skips a document type declaration and its internal subset, which are not interpreted.
    private func doctype(from offset: Int) throws(AppleHealthError) -> Int? {
        var index = offset
        while true {
            guard index < filled else { return nil }
            switch buffer[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let next = afterQuote(at: index) else { return nil }
                index = next
            case UInt8(ascii: ">"):
                return index + 1
            case UInt8(ascii: "["):
                return try internalSubset(from: index + 1)
            default:
                index += 1
            }
        }
    }

    private func internalSubset(from offset: Int) throws(AppleHealthError) -> Int? {
        var index = offset
        while true {
            guard index < filled else { return nil }
            let byte = buffer[index]
            if classes[Int(byte)] & Self.space != 0 {
                index += 1
            } else if byte == UInt8(ascii: "]") {
                index += 1
                while index < filled, classes[Int(buffer[index])] & Self.space != 0 { index += 1 }
                guard index < filled else { return nil }
                guard buffer[index] == UInt8(ascii: ">") else {
                    throw failure(at: index, "expected '>' to close the DOCTYPE")
                }
                return index + 1
            } else if byte == UInt8(ascii: "%") {
                guard let end = find(";", from: index) else { return nil }
                index = end
            } else if byte == UInt8(ascii: "<") {
                guard let comment = has("<!--", at: index) else { return nil }
                if comment {
                    guard let end = find("-->", from: index + 4) else { return nil }
                    index = end
                    continue
                }
                guard let instruction = has("<?", at: index) else { return nil }
                if instruction {
                    guard let end = find("?>", from: index + 2) else { return nil }
                    index = end
                    continue
                }
                guard let declaration = has("<!", at: index) else { return nil }
                guard declaration else { throw failure(at: index, "unexpected markup in the DTD") }
                index += 2
                // A declaration ends at the first '>' outside quotes.
                while true {
                    guard index < filled else { return nil }
                    let inner = buffer[index]
                    if inner == UInt8(ascii: "\"") || inner == UInt8(ascii: "'") {
                        guard let next = afterQuote(at: index) else { return nil }
                        index = next
                    } else {
                        index += 1
                        if inner == UInt8(ascii: ">") { break }
                    }
                }
            } else {
                throw failure(at: index, "unexpected character in the DTD")
            }
        }
    }

    // MARK: - Characters

    /// Checks the character data from `offset` up to the next `<`: text, with known references.
    /// Returns where it stopped (a `<`, or `filled`), and `complete: false` when a reference or a
    /// multi-byte character there is cut by the end of the buffer.
    private func characterData(from offset: Int) throws(AppleHealthError) -> (end: Int, complete: Bool) {
        var index = offset
        while true {
            while index < filled, classes[Int(buffer[index])] & Self.textSpecial == 0 { index += 1 }
            guard index < filled else { return (index, true) }
            let byte = buffer[index]
            switch byte {
            case UInt8(ascii: "<"):
                return (index, true)
            case UInt8(ascii: "&"):
                guard let end = try reference(at: index) else { return (index, false) }
                index = end
            case 0x80...:
                guard let end = try characterEnd(at: index, limit: filled, in: "the text between tags") else {
                    return (index, false)
                }
                index = end
            default:
                throw failure(at: index, "\(control(byte)) in the text between tags\(Self.controlRule)")
            }
        }
    }

    /// `end`, once `buffer[start..<end]` (a whole comment, processing instruction, CDATA section or
    /// DOCTYPE) is checked to be text; `nil` when `end` is.
    private func checkedCharacters(from start: Int, to end: Int?, in context: String) throws(AppleHealthError) -> Int? {
        guard let end else { return nil }
        var index = start
        while index < end {
            let byte = buffer[index]
            if byte >= 0x80 {
                guard let next = try characterEnd(at: index, limit: end, in: context) else {
                    throw failure(at: index, "invalid UTF-8 in \(context): an export.xml is UTF-8 text")
                }
                index = next
            } else if byte < 0x20, classes[Int(byte)] & Self.space == 0 {
                throw failure(at: index, "\(control(byte)) in \(context)\(Self.controlRule)")
            } else {
                index += 1
            }
        }
        return end
    }

    /// The name at `start`, whose first byte is a name's: its length, checked (`checkName`, `context` naming it in an
    /// error), and the index of the first byte after it and the spaces that follow; `nil` when the buffer ends first.
    private func name(at start: Int, _ context: String) throws(AppleHealthError) -> (length: Int, next: Int)? {
        let buffer = self.buffer
        let filled = self.filled
        var index = start
        while index < filled, isNameCharacter(buffer[index]) { index += 1 }
        let length = index - start
        while index < filled, isSpace(buffer[index]) { index += 1 }
        guard index < filled else { return nil }
        try checkName(from: start, to: start + length, context)
        return (length, index)
    }

    /// Checks that the name in `buffer[start..<end]` is UTF-8 (its bytes below 0x80 are already name characters).
    private func checkName(from start: Int, to end: Int, _ context: String) throws(AppleHealthError) {
        var index = start
        while index < end {
            guard buffer[index] >= 0x80 else {
                index += 1
                continue
            }
            guard let next = try characterEnd(at: index, limit: end, in: context) else {
                throw failure(at: index, "invalid UTF-8 in \(context): an export.xml is UTF-8 text")
            }
            index = next
        }
    }

    /// The offset after the multi-byte UTF-8 character whose first byte (0x80 or more) is at `offset`,
    /// or `nil` when `limit` comes first. Throws for what is not UTF-8 (a stray continuation byte, an
    /// overlong form, a surrogate, a code point past U+10FFFF) and for U+FFFE and U+FFFF, which XML
    /// does not allow (XML 1.0 §2.2).
    private func characterEnd(at offset: Int, limit: Int, in context: String) throws(AppleHealthError) -> Int? {
        let lead = buffer[offset]
        let length: Int
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: (length, scalar) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, scalar) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, scalar) = (4, UInt32(lead & 0x07))
        default: throw failure(at: offset, "invalid UTF-8 in \(context): an export.xml is UTF-8 text")
        }
        for next in 1..<length {
            guard offset + next < limit else { return nil }
            let byte = buffer[offset + next]
            guard byte & 0xC0 == 0x80 else {
                throw failure(at: offset, "invalid UTF-8 in \(context): an export.xml is UTF-8 text")
            }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        let shortest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard scalar >= shortest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
            throw failure(at: offset, "invalid UTF-8 in \(context): an export.xml is UTF-8 text")
        }
        guard scalar != 0xFFFE, scalar != 0xFFFF else {
            throw failure(at: offset, "the noncharacter U+\(String(scalar, radix: 16, uppercase: true)) in \(context)")
        }
        return offset + length
    }

    private static var controlRule: String {
        "; XML allows no control character but tab, line feed and carriage return"
    }

    private func control(_ byte: UInt8) -> String {
        byte == 0
            ? "a NUL byte"
            : "the control character U+\(byte < 0x10 ? "000" : "00")\(String(byte, radix: 16, uppercase: true))"
    }

    private func isSpace(_ byte: UInt8) -> Bool { classes[Int(byte)] & Self.space != 0 }
    private func isNameStart(_ byte: UInt8) -> Bool { classes[Int(byte)] & Self.nameStart != 0 }
    private func isNameCharacter(_ byte: UInt8) -> Bool { classes[Int(byte)] & Self.nameCharacter != 0 }

    /// A name from the buffer, for a message: escaped and cut short, since it is input.
    private func text(_ start: Int, _ length: Int) -> String {
        PrintableExcerpt.of(String(decoding: UnsafeBufferPointer(start: buffer + start, count: length), as: UTF8.self))
    }

    private func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x20: "a space"
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        default: "byte \(byte)"
        }
    }

    private func startTag<Handler: ExportEventHandler>(
        at start: Int, handler: inout Handler
    ) throws(AppleHealthError) -> Int? {
        let buffer = self.buffer
        let filled = self.filled
        var index = start + 1
        guard isNameStart(buffer[index]) else {
            throw failure(at: index, "expected an element name after '<', found \(describe(buffer[index]))")
        }
        let nameStart = index
        while index < filled, isNameCharacter(buffer[index]) { index += 1 }
        guard index < filled else { return nil }
        let nameLength = index - nameStart
        try checkName(from: nameStart, to: index, "an element name")
        slotCount = 0
        var selfClosing = false
        while true {
            let spaceStart = index
            while index < filled, isSpace(buffer[index]) { index += 1 }
            guard index < filled else { return nil }
            let byte = buffer[index]
            if byte == UInt8(ascii: ">") {
                index += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                guard index + 1 < filled else { return nil }
                guard buffer[index + 1] == UInt8(ascii: ">") else {
                    throw failure(at: index + 1, "expected '>' after '/' in <\(text(nameStart, nameLength))>")
                }
                selfClosing = true
                index += 2
                break
            }
            guard isNameStart(byte) else {
                throw failure(at: index, "unexpected \(describe(byte)) in <\(text(nameStart, nameLength))>")
            }
            guard index > spaceStart else {
                throw failure(at: index, "expected a space before the attribute")
            }
            guard let next = try attribute(at: index) else { return nil }
            index = next
        }
        let attributes = TagAttributes(
            base: UnsafePointer(buffer), slots: UnsafeBufferPointer(start: slots, count: slotCount))
        let depth = openLengths.count
        if depth == 0 {
            guard !rootClosed else {
                throw failure(at: start, "a second root element <\(text(nameStart, nameLength))>")
            }
            guard isName("HealthData", at: nameStart, length: nameLength) else {
                throw .notAnExport(rootElement: text(nameStart, nameLength))
            }
            rootOpened = true
            if selfClosing { rootClosed = true }
        } else if depth == 1, isName("Record", at: nameStart, length: nameLength) {
            handler.beginRecord(attributes)
            if selfClosing {
                handler.endRecord()
            } else {
                recordOpen = true
            }
        } else if depth == 2, recordOpen, isName("MetadataEntry", at: nameStart, length: nameLength) {
            handler.metadataEntry(attributes)
        }
        if !selfClosing {
            openNames.append(contentsOf: UnsafeBufferPointer(start: buffer + nameStart, count: nameLength))
            openLengths.append(nameLength)
        }
        return index
    }

    /// Parses `name = "value"` starting at `offset` into a new slot; the offset after the closing quote.
    private func attribute(at offset: Int) throws(AppleHealthError) -> Int? {
        // Locals, not properties, in the loops below: a class property read is an exclusivity check.
        let buffer = self.buffer
        let filled = self.filled
        guard let (nameLength, afterName) = try name(at: offset, "an attribute name") else { return nil }
        var index = afterName
        guard buffer[index] == UInt8(ascii: "=") else {
            throw failure(at: index, "expected '=' after the attribute \(text(offset, nameLength))")
        }
        index += 1
        while index < filled, isSpace(buffer[index]) { index += 1 }
        guard index < filled else { return nil }
        let quote = buffer[index]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw failure(at: index, "the value of \(text(offset, nameLength)) must be in quotes")
        }
        index += 1
        let valueStart = index
        var needsDecoding = false
        while true {
            while index < filled, classes[Int(buffer[index])] & Self.valueSpecial == 0 { index += 1 }
            guard index < filled else { return nil }
            let byte = buffer[index]
            if byte == quote { break }
            switch byte {
            case UInt8(ascii: "<"):
                throw failure(at: index, "'<' is not allowed in an attribute value (a quote may be missing)")
            case UInt8(ascii: "&"):
                guard let end = try reference(at: index) else { return nil }
                needsDecoding = true
                index = end
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                needsDecoding = true
                index += 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):  // the other quote character
                index += 1
            case 0x80...:
                let context = "the value of \(text(offset, nameLength))"
                guard let end = try characterEnd(at: index, limit: filled, in: context) else { return nil }
                index = end
            default:
                throw failure(
                    at: index, "\(control(byte)) in the value of \(text(offset, nameLength))\(Self.controlRule)")
            }
        }
        for other in 0..<slotCount where slots[other].nameLength == nameLength {
            if memcmp(buffer + slots[other].nameStart, buffer + offset, nameLength) == 0 {
                throw failure(at: offset, "the attribute \(text(offset, nameLength)) appears twice")
            }
        }
        if slotCount == slotCapacity {
            let larger = UnsafeMutablePointer<AttributeSlot>.allocate(capacity: slotCapacity * 2)
            larger.moveInitialize(from: slots, count: slotCount)
            slots.deallocate()
            slots = larger
            slotCapacity *= 2
        }
        (slots + slotCount).initialize(
            to: AttributeSlot(
                nameStart: offset, nameLength: nameLength, valueStart: valueStart,
                valueLength: index - valueStart, needsDecoding: needsDecoding))
        slotCount += 1
        return index + 1
    }

    /// Checks the entity or character reference at `offset`; the offset after its `;`.
    private func reference(at offset: Int) throws(AppleHealthError) -> Int? {
        // The longest allowed reference, `&#x0010FFFF;`, has 10 characters between '&' and ';'.
        let limit = offset + 12
        var index = offset + 1
        while index < min(limit, filled), buffer[index] != UInt8(ascii: ";") { index += 1 }
        if index == filled, filled < limit { return nil }
        guard index < limit,
            TagAttributes.entity(UnsafeBufferPointer(start: buffer + offset + 1, count: index - offset - 1)) != nil
        else {
            throw failure(
                at: offset,
                "unknown entity or invalid character reference; an export uses only &lt; &gt; &amp; &quot; "
                    + "&apos; and &#…; references")
        }
        return index + 1
    }

    private func endTag<Handler: ExportEventHandler>(
        at start: Int, handler: inout Handler
    ) throws(AppleHealthError) -> Int? {
        var index = start + 2
        guard index < filled else { return nil }
        guard isNameStart(buffer[index]) else {
            throw failure(at: index, "expected an element name after '</'")
        }
        let nameStart = index
        guard let (nameLength, afterName) = try name(at: nameStart, "an element name") else { return nil }
        index = afterName
        guard buffer[index] == UInt8(ascii: ">") else {
            throw failure(at: index, "expected '>' to close </\(text(nameStart, nameLength))>")
        }
        guard let openLength = openLengths.last else {
            throw failure(at: start, "</\(text(nameStart, nameLength))> closes no open element")
        }
        let openStart = openNames.count - openLength
        let matches =
            openLength == nameLength
            && openNames.withUnsafeBufferPointer { memcmp($0.baseAddress! + openStart, buffer + nameStart, nameLength) }
                == 0
        guard matches else {
            let open = PrintableExcerpt.of(openName(openLengths.count - 1)!)
            throw failure(at: start, "</\(text(nameStart, nameLength))> does not close the open <\(open)>")
        }
        openNames.removeLast(openLength)
        openLengths.removeLast()
        if recordOpen, openLengths.count == 1 {
            recordOpen = false
            handler.endRecord()
        }
        if openLengths.isEmpty { rootClosed = true }
        return index + 1
    }

    private func isName(_ literal: StaticString, at start: Int, length: Int) -> Bool {
        length == literal.utf8CodeUnitCount && memcmp(buffer + start, literal.utf8Start, length) == 0
    }

    /// The name of the open element at `level` (0 = root); `nil` when there is none.
    private func openName(_ level: Int) -> String? {
        guard level >= 0, level < openLengths.count else { return nil }
        let end = openNames.count - openLengths[(level + 1)...].reduce(0, +)
        return String(decoding: openNames[(end - openLengths[level])..<end], as: UTF8.self)
    }
}
