/// Code nothing can run. A function the sources never call is taken as callable from outside them — by the system,
/// a selector, a library's user — unless nothing outside can call it either; then it is dead code, and so is a
/// function only dead code calls. What happens in dead code never happens: a manager nothing sets up, a helper left
/// behind.
extension Project {
    /// Whether nothing can ever run function `id`: it is not `public`, not exposed to the Objective-C runtime or a
    /// superclass (`FactCollector.exposingModifiers`), not a callback the system makes, not a method of a type that
    /// code outside the sources may call (`ProjectIndex.membersCallableFromOutside`), its name is written nowhere in
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
        guard visiting.count <= 8 else { return false }
        defer { visiting.remove(id) }
        let info = index.callable(id)
        guard index.hasAppEntry, info.kind == .function, info.open >= 0, !info.isPublic, !info.isExposed,
            !index.isSystemEntry(id),
            info.name.first.map({ $0.isLetter || $0 == "_" }) == true,
            info.typeName.map({ !index.membersCallableFromOutside($0) }) ?? true
        else { return false }
        let calls = index.calls(named: info.name)
        guard mentionCount(of: info.name) == index.declarationCount(of: info.name) + calls.count else { return false }
        let callers = Set(index.callers(of: id))
        // A call that may be one of this function's and is not joined to it keeps it alive: one joined to no function
        // (too many share the name), or made on a value of a type the index cannot tell (`registration.run(…)`, which
        // it may have joined to another function of the name).
        guard calls.allSatisfy({ callers.contains($0) || !index.mayReach($0, id) || index.isJoinedByType($0) })
        else { return false }
        let dead = callers.allSatisfy { isUnreachable(index.caller(of: $0), visiting: &visiting) }
        if visiting.count == 1 { unreachable[id] = dead }
        return dead
    }

    /// Whether `line` of source `file` lies in dead code: in the body (or at the head) of a function that nothing can
    /// run, or of one nested in it.
    func isInDeadCode(file fileIndex: Int, line: Int) -> Bool {
        let source = file(fileIndex)
        for (index, callable) in summary(fileIndex).callables.enumerated()
        where callable.kind == .function && callable.open >= 0 && Int(callable.line) <= line {
            let close = Int(source.matching[Int(callable.open)])
            guard close > Int(callable.open), source.line(close) >= line else { continue }
            if isUnreachable(CallableID(file: Int32(fileIndex), index: Int32(index))) { return true }
        }
        return false
    }

    /// How often `name` is written as a whole word in the sources (also in comments and strings).
    private func mentionCount(of name: String) -> Int {
        if let known = mentions[name] { return known }
        let word = Array(name.utf8)
        var count = 0
        for source in sources { count += Self.occurrences(of: word, in: source) }
        mentions[name] = count
        return count
    }

    private static func occurrences(of word: [UInt8], in bytes: [UInt8]) -> Int {
        guard let first = word.first, word.count <= bytes.count else { return 0 }
        var count = 0
        bytes.withUnsafeBufferPointer { text in
            word.withUnsafeBufferPointer { word in
                let last = text.count - word.count
                var index = 0
                while index <= last {
                    if text[index] == first, index == 0 || !isWordByte(text[index - 1]),
                        index + word.count == text.count || !isWordByte(text[index + word.count])
                    {
                        var match = true
                        for offset in 1..<word.count where text[index + offset] != word[offset] {
                            match = false
                            break
                        }
                        if match { count += 1 }
                    }
                    index += 1
                }
            }
        }
        return count
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte == ASCII.underscore || byte >= 0x80 || (byte >= 0x30 && byte <= 0x39)
            || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }
}
