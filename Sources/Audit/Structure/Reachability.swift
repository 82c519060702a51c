/// Code nothing can run. A function the sources never call is taken as callable from outside them — by the system,
/// a selector, a library's user — unless nothing outside can call it either; then it is dead code, and so is a
/// function only dead code calls. What happens in dead code never happens: a manager nothing sets up, a helper left
/// behind.
extension Project {
    /// Whether nothing can ever run function `id`: it is not `public`, not exposed to the Objective-C runtime or a
    /// superclass (`FactCollector.exposingModifiers`), not a callback the system makes, not a method of a type that
    /// code outside the sources may call (`ProjectIndex.membersCallableFromOutside`) nor one a protocol or superclass of
    /// the sources declares too (a call through the protocol may be joined to its requirement alone), its name is written nowhere in
    /// the sources but at declarations and calls (a `#selector`, a function passed by name, a comment: each keeps it
    /// alive), no call of the name that the index joined to no function may be one of it, and every function calling
    /// it is dead too.
    func isUnreachable(_ id: CallableID) -> Bool {
        var visiting: Set<CallableID> = []
        return isUnreachable(id, visiting: &visiting)
    }

    private func isUnreachable(_ id: CallableID, visiting: inout Set<CallableID>) -> Bool {
        if let known = unreachable[id] { return known }
        // A cycle of calls among functions nothing else calls: none of them runs.
        guard visiting.insert(id).inserted else { return true }
        defer { visiting.remove(id) }
        guard visiting.count <= 8 else { return false }
        let info = index.callable(id)
        if let typeName = info.typeName, isDeadType(typeName) {
            if visiting.count == 1 { unreachable[id] = true }
            return true
        }
        if info.kind == .function, Self.sceneReplacedCallbacks.contains(info.signature), let typeName = info.typeName,
            index.conformances(of: typeName).contains(where: { $0.hasSuffix("ApplicationDelegate") }),
            livesInScenes(delegate: typeName)
        {
            if visiting.count == 1 { unreachable[id] = true }
            return true
        }
        // In a library (no app entry in the sources) the app built on it may call what is not private.
        guard index.hasAppEntry || info.isPrivate, info.kind == .function, info.open >= 0, !info.isPublic,
            !info.isExposed,
            !index.isSystemEntry(id),
            info.name.first.map({ $0.isLetter || $0 == "_" }) == true,
            // A `private` method meets no requirement of a protocol or superclass outside the sources, and is not
            // seen by the Objective-C runtime unless exposed.
            // A requirement of the sources' own protocol is called through the protocol, where anything calls the
            // name at all.
            info.typeName.map({
                (info.isPrivate || !index.membersCallableFromOutside($0, member: info.name))
                    && (!index.inheritsRequirement(named: info.name, into: $0) || index.calls(named: info.name).isEmpty)
            }) ?? true
        else { return false }
        // A live caller settles it without reading the sources.
        let callers = Set(index.callers(of: id))
        for call in callers where !isUnreachable(index.caller(of: call), visiting: &visiting) {
            if visiting.count == 1 { unreachable[id] = false }
            return false
        }
        let calls = index.calls(named: info.name)
        guard mentions[info.name, default: 0] == calls.count else {
            return false
        }
        // A call that may be one of this function's and is not joined to it keeps it alive: one joined to no function
        // (too many share the name), or made on a value of a type the index cannot tell (`registration.run(…)`, which
        // it may have joined to another function of the name).
        let dead = calls.allSatisfy { callers.contains($0) || !index.mayReach($0, id) || index.isJoinedByType($0) }
        if visiting.count == 1 { unreachable[id] = dead }
        return dead
    }

    /// Whether `line` of source `file` lies in dead code: in the body (or at the head) of a function that nothing can
    /// run, or of one nested in it, or in a type nothing can make (`isDeadType`).
    func isInDeadCode(file fileIndex: Int, line: Int) -> Bool {
        for (index, callable) in summary(fileIndex).callables.enumerated()
        where callable.open >= 0 && Int(callable.line) <= line && Int(callable.closeLine) >= line {
            if callable.typeName.map(isDeadType) == true { return true }
            if callable.kind == .function, isUnreachable(CallableID(file: Int32(fileIndex), index: Int32(index))) {
                return true
            }
            if callable.kind == .initializer, callable.isPrivate, let type = callable.typeName,
                !makesInstance(of: type, in: file(fileIndex))
            {
                return true
            }
        }
        return false
    }

    /// Whether `file`, the only one that may call a `private` initializer of `type`, makes an instance of it:
    /// `Type(…)`, `Type.init(…)`, `Self(…)` or `.init(…)` (`static let shared = Manager()`; a `shared` made of the
    /// superclass, `CLLocationManager()`, never runs the subclass's).
    private func makesInstance(of type: String, in file: SourceFile) -> Bool {
        (0..<file.count).contains { token in
            guard file.isIdentifier(token) else { return false }
            if file.is(token, "init") {
                // `.init(…)` or `self.init(…)`; not `super.init()`, which makes no instance of its own.
                return file.isPunct(token - 1, ASCII.dot) && !file.is(token - 2, "super")
            }
            guard file.text(token) == type || file.is(token, "Self") else { return false }
            return file.isPunct(token + 1, ASCII.openParen)
                || file.isPunct(token + 1, ASCII.dot) && file.is(token + 2, "init")
        }
    }

    /// The app delegate's callbacks for moves to and from the background, which UIKit does not call in an app whose
    /// UI lives in scenes (their scene delegate's `sceneDidEnterBackground(_:)` … replace them).
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationdidenterbackground(_:)
    static let sceneReplacedCallbacks: Set<String> = [
        "applicationDidEnterBackground(_:)", "applicationWillEnterForeground(_:)", "applicationDidBecomeActive(_:)",
        "applicationWillResignActive(_:)",
    ]

    /// Whether the app of app delegate `delegate` keeps its UI in scenes: a SwiftUI `App` installs the delegate (it is
    /// no entry of its own, and is named outside itself: `@UIApplicationDelegateAdaptor(AppDelegate.self)`), or an
    /// app's own Info.plist (not an extension's or a framework's) declares a `UIApplicationSceneManifest`.
    private func livesInScenes(delegate: String) -> Bool {
        (index.hasSwiftUIEntry && !index.isEntry(delegate) && index.namedOutsideItself(delegate))
            || propertyLists.contains { $0.declaresSceneManifest && !$0.isExtension && !$0.isLibraryBundle }
    }

    /// Whether nothing can ever make an instance of type `name`, nor reach a static member of it, so that none of its
    /// code runs: in sources that hold an app's entry, a type the sources declare, its name capitalised, with no
    /// `public` member, none of whose supertypes the sources do not declare asks for a method
    /// (`ProjectIndex.membersCallableFromOutside`), not the app's entry or delegate, not named in an Objective-C source
    /// (which the audit does not parse), and whose name is written nowhere in the sources outside its own declarations and extensions
    /// but in comments (`static let shared = Manager()` inside `Manager`, which nothing else names); and an app
    /// delegate a SwiftUI app never installs (`ProjectIndex.isUninstalledAppDelegate`).
    func isDeadType(_ name: String) -> Bool {
        if let known = deadTypes[name] { return known }
        let dead = typeIsDead(name)
        deadTypes[name] = dead
        return dead
    }

    private func typeIsDead(_ name: String) -> Bool {
        // Only a capitalised name is looked for where it is written (`FileSummary.namesOutsideOwnType`).
        guard name.first.map({ $0 >= "A" && $0 <= "Z" }) == true, index.hasAppEntry, index.declares(type: name),
            !index.namedOutsideItself(name), !namedInObjectiveCSources(name)
        else { return false }
        if index.isUninstalledAppDelegate(name) { return true }
        return !index.mayBeMadeOutside(name) && !index.isAppType(name) && !index.hasPublicMembers(name)
    }

    /// How often the name of each function that may be dead (not public, not exposed) is written as a whole word in
    /// the sources' code and strings, other than where a `func` declares it: counted in one pass, the first time a name
    /// is asked about.
    static func mentionCounts(in index: ProjectIndex, sources: [[UInt8]]) -> [String: Int] {
        var names: Set<String> = []
        for file in index.files {
            for info in file.callables
            where info.kind == .function && info.open >= 0 && !info.isPublic && !info.isExposed {
                names.insert(info.name)
            }
        }
        return occurrences(of: names, in: sources)
    }

    /// How often each of `names` is written as a whole word in `sources`: each word is hashed as it is read, and only
    /// a word whose hash one of the names has is spelled out.
    private static func occurrences(of names: Set<String>, in sources: [[UInt8]]) -> [String: Int] {
        var hashes: Set<UInt64> = []
        // A bit per hash's low 16 bits: most words are turned away by it before the set is asked.
        var bits = [UInt64](repeating: 0, count: 1024)
        for name in names {
            let value = Array(name.utf8).withUnsafeBufferPointer { WordTable.hash($0, 0, $0.count) }
            hashes.insert(value)
            bits[Int(value & 0xFFFF) >> 6] |= 1 << (value & 63)
        }
        var counts: [String: Int] = [:]
        for source in sources {
            source.withUnsafeBufferPointer { text in
                var index = 0
                var quotes = 0  // Inside a string literal: 1, or 3 for a multi-line one; words in it count.
                var afterFunc = false
                while index < text.count {
                    let byte = text[index]
                    guard isWordByte(byte) else {
                        if byte != ASCII.space, byte != ASCII.newline, byte != ASCII.tab { afterFunc = false }
                        // Only a quote, a slash, or in a literal a backslash or a line's end can change where the scan
                        // is; any other byte is stepped over here.
                        if quotes > 0, byte == ASCII.quote || byte == ASCII.backslash || byte == ASCII.newline {
                            index = skipInString(text, index, &quotes)
                        } else if quotes == 0, byte == ASCII.quote || byte == ASCII.slash {
                            index = skipInCode(text, index, &quotes)
                        } else {
                            index += 1
                        }
                        continue
                    }
                    let start = index
                    while index < text.count, isWordByte(text[index]) { index += 1 }
                    // The name a declaration declares (`func name`, with a body or a protocol's requirement without
                    // one) is no mention of it.
                    let declared = afterFunc
                    afterFunc =
                        quotes == 0 && index - start == 4 && text[start] == 0x66 && text[start + 1] == 0x75
                        && text[start + 2] == 0x6E && text[start + 3] == 0x63
                    if declared { continue }
                    let value = WordTable.hash(text, start, index)
                    guard bits[Int(value & 0xFFFF) >> 6] & (1 << (value & 63)) != 0, hashes.contains(value) else {
                        continue
                    }
                    let word = String(decoding: UnsafeBufferPointer(rebasing: text[start..<index]), as: UTF8.self)
                    if names.contains(word) { counts[word, default: 0] += 1 }
                }
            }
        }
        return counts
    }

    /// Past the byte at `index` of code, which is no word's: past a whole comment (a commented-out call runs nothing),
    /// or into the string literal a `"` opens (`quotes` set).
    private static func skipInCode(_ text: UnsafeBufferPointer<UInt8>, _ index: Int, _ quotes: inout Int) -> Int {
        let next = index + 1 < text.count ? text[index + 1] : 0
        if text[index] == ASCII.quote {
            let triple = index + 2 < text.count && next == ASCII.quote && text[index + 2] == ASCII.quote
            quotes = triple ? 3 : 1
            return index + quotes
        }
        guard text[index] == ASCII.slash else { return index + 1 }
        if next == ASCII.slash {
            var end = index + 2
            while end < text.count, text[end] != ASCII.newline { end += 1 }
            return end
        }
        guard next == ASCII.star else { return index + 1 }
        // Block comments nest in Swift.
        var depth = 1
        var end = index + 2
        while end < text.count, depth > 0 {
            if text[end] == ASCII.slash, end + 1 < text.count, text[end + 1] == ASCII.star {
                depth += 1
                end += 2
            } else if text[end] == ASCII.star, end + 1 < text.count, text[end + 1] == ASCII.slash {
                depth -= 1
                end += 2
            } else {
                end += 1
            }
        }
        return end
    }

    /// Past the byte at `index` of a string literal, which is no word's: past an escaped character, or out of the
    /// literal at its closing quotes (a one-line literal also at the line's end).
    private static func skipInString(_ text: UnsafeBufferPointer<UInt8>, _ index: Int, _ quotes: inout Int) -> Int {
        switch text[index] {
        case ASCII.backslash:
            return index + 2
        case ASCII.newline where quotes == 1:
            quotes = 0
            return index + 1
        case ASCII.quote:
            if quotes == 1 {
                quotes = 0
                return index + 1
            }
            if index + 2 < text.count, text[index + 1] == ASCII.quote, text[index + 2] == ASCII.quote {
                quotes = 0
                return index + 3
            }
            return index + 1
        default:
            return index + 1
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte == ASCII.underscore || byte >= 0x80 || (byte >= 0x30 && byte <= 0x39)
            || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }
}
