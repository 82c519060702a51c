/// `resubmit-blocked-by-flag`: a submit that a process-wide flag skips once the flag is set, where the flag is never
/// set back. Judged by what the code does with the flag, not by its name: a `Bool` stored variable that lives as
/// long as the process (a global, a `static` property, a property of a singleton or of the app delegate), that the
/// sources only ever set to `true`, tested before a submit (`guard !flag else { return }`, `if flag { return }`, or
/// the submit inside `if !flag { … }`) and set to `true` in the code it guards. Only submits that run more than once in a process matter: reached from a
/// launch handler, or from a callback that runs on every change of app state. A submit made once at launch, a
/// flag some code resets (in the handler, its expiration handler, a completion) and a local flag are not flagged.
struct ResubmitFlagCheck {
    let project: Project

    func run(into findings: inout [Finding]) {
        let resetsByFlag = processFlags()
        guard !resetsByFlag.isEmpty else { return }
        let flags = Set(resetsByFlag.keys)
        let (direct, submitting) = chainSubmitting()
        var regions: [HandlerRegion]?
        var reach: Set<CallableID>?
        for fileIndex in 0..<project.fileCount {
            let summary = project.summary(fileIndex)
            for (callableIndex, callable) in summary.callables.enumerated() where callable.open >= 0 {
                let id = CallableID(file: Int32(fileIndex), index: Int32(callableIndex))
                guard submitting.contains(id) else { continue }
                let file = project.file(fileIndex)
                let open = Int(callable.open)
                let close = Int(file.matching[open])
                guard close > open else { continue }
                for guarded in guardedRegions(in: file, from: open, to: close, flags: flags) {
                    guard setsTrue(file.text(guarded.test), in: guarded.region, of: file) else { continue }
                    if regions == nil { regions = handlerRegions() }
                    // A launch handler registered in the region runs later, not when the region does: its submits
                    // are not the region's.
                    let later = (regions ?? []).filter {
                        Int($0.file) == fileIndex && guarded.region.contains(Int($0.open))
                    }
                    guard
                        submits(
                            in: guarded.region, of: id, file: fileIndex, skipping: later, direct: direct,
                            submitting: submitting)
                    else { continue }
                    let name = file.text(guarded.test)
                    let resets = resetsByFlag[name] ?? []
                    if resets.isEmpty {
                        guard runsRepeatedly(id, test: guarded.test, file: fileIndex, regions: regions ?? []) else {
                            continue
                        }
                    } else {
                        // Set back somewhere: the submit is blocked only when the handler reaches it and no reset
                        // is on the handler's way (in the handler, or in code it calls), so in a process that
                        // stays in the background the flag is still set when the handler runs again.
                        if reach == nil { reach = handlerReach(regions ?? []) }
                        let reached = reach ?? []
                        let inHandler = { (file: Int32, token: Int32, caller: CallableID) in
                            reached.contains(caller) || (regions ?? []).contains { $0.contains(file, token) }
                        }
                        guard inHandler(Int32(fileIndex), Int32(guarded.test), id),
                            !resets.contains(where: { inHandler($0.file, $0.token, $0.callable) })
                        else { continue }
                    }
                    findings.append(
                        Finding(
                            rule: .resubmitBlockedByFlag, at: file.location(guarded.test),
                            message: "`\(name)` lives as long as the process, "
                                + (resets.isEmpty
                                    ? "is only ever set to true, "
                                    : "is set back only in code the launch handler does not run, ")
                                + "and skips the submit in \(callable.signature) once set; iOS keeps the app in "
                                + "memory between background launches, so the handler's request is not submitted and "
                                + "the chain stops after its first run."))
                }
            }
        }
    }

    /// Where a flag is set back: the file, the token and the callable it is in.
    private struct Reset {
        var file: Int32
        var token: Int32
        var callable: CallableID
    }

    /// Flags that keep their value for the life of the process, with where each is set back: declared (every
    /// declaration of the name) as a global, a `static` property or a property of a singleton or app type, and set to
    /// `true` somewhere.
    private func processFlags() -> [String: [Reset]] {
        let index = project.index
        var setTrue: Set<String> = []
        var singletons: Set<String> = []
        var resets: [String: [Reset]] = [:]
        for (fileIndex, summary) in index.files.enumerated() {
            setTrue.formUnion(summary.namesSetTrue)
            singletons.formUnion(summary.singletonTypes)
            for reset in summary.resets {
                resets[reset.name, default: []].append(
                    Reset(
                        file: Int32(fileIndex), token: reset.token,
                        callable: CallableID(file: Int32(fileIndex), index: reset.caller)))
            }
        }
        var lifetime: [String: Bool] = [:]
        for summary in index.files {
            for flag in summary.flags where setTrue.contains(flag.name) {
                let processWide =
                    flag.isStatic || flag.typeName == nil || singletons.contains(flag.typeName ?? "")
                    || index.isAppType(flag.typeName)
                lifetime[flag.name] = (lifetime[flag.name] ?? true) && processWide
            }
        }
        var result: [String: [Reset]] = [:]
        for (name, processWide) in lifetime where processWide { result[name] = resets[name] ?? [] }
        return result
    }

    /// Every callable a launch handler runs: called from a handler's body, or from those (eight calls deep).
    private func handlerReach(_ regions: [HandlerRegion]) -> Set<CallableID> {
        let index = project.index
        var callsByCaller: [CallableID: [CallID]] = [:]
        var work: [(CallableID, Int)] = []
        for (fileIndex, summary) in index.files.enumerated() {
            for (callIndex, call) in summary.calls.enumerated() {
                let id = CallID(file: Int32(fileIndex), index: Int32(callIndex))
                callsByCaller[CallableID(file: Int32(fileIndex), index: call.caller), default: []].append(id)
                guard regions.contains(where: { $0.contains(Int32(fileIndex), call.token) }) else { continue }
                for callee in index.resolve(call: call, from: Int32(fileIndex)) { work.append((callee, 1)) }
            }
            for (callableIndex, callable) in summary.callables.enumerated() where callable.open >= 0 {
                if regions.contains(where: { $0.file == Int32(fileIndex) && $0.open == callable.open }) {
                    work.append((CallableID(file: Int32(fileIndex), index: Int32(callableIndex)), 0))
                }
            }
        }
        var reached: Set<CallableID> = []
        while let (callable, depth) = work.popLast() {
            guard reached.insert(callable).inserted, depth < 8 else { continue }
            for call in callsByCaller[callable] ?? [] {
                for callee in index.resolve(call: index.call(call), from: call.file) {
                    work.append((callee, depth + 1))
                }
            }
        }
        return reached
    }

    /// Where code runs only while a flag is false: after `guard !flag else { return }` or `if flag { return }`
    /// (to the end of the body), or inside `if !flag { … }`; `test` is the flag's name in the condition.
    private func guardedRegions(in file: SourceFile, from open: Int, to close: Int, flags: Set<String>)
        -> [(test: Int, region: Range<Int>)]
    {
        var result: [(test: Int, region: Range<Int>)] = []
        var cursor = open + 1
        while cursor < close {
            let word = file.word(cursor)
            guard word == .guard || word == .if else {
                cursor += 1
                continue
            }
            guard let (conditionEnd, body) = conditionAndBody(file, after: cursor, limit: close),
                let (test, negated) = flagTest(file, from: cursor + 1, to: conditionEnd, flags: flags)
            else {
                cursor += 1
                continue
            }
            let bodyClose = Int(file.matching[body])
            guard bodyClose > body else { break }
            // The rest of the block the statement is in.
            let blockEnd = min(close, Int(file.scopes[Int(file.scopeOf[cursor])].close))
            if word == .guard, negated, exits(file, body, bodyClose) {
                result.append((test, (bodyClose + 1)..<max(bodyClose + 1, blockEnd)))
            } else if word == .if, !negated, exits(file, body, bodyClose), file.word(bodyClose + 1) != .else {
                result.append((test, (bodyClose + 1)..<max(bodyClose + 1, blockEnd)))
            } else if word == .if, negated {
                result.append((test, (body + 1)..<bodyClose))
            }
            cursor += 1
        }
        return result
    }

    /// For `guard … else {` or `if … {` at `keyword`: where the condition ends and the body's `{`.
    private func conditionAndBody(_ file: SourceFile, after keyword: Int, limit: Int) -> (Int, Int)? {
        var cursor = keyword + 1
        let isGuard = file.word(keyword) == .guard
        while cursor < limit {
            if file.isPunct(cursor, ASCII.openParen) || file.isPunct(cursor, ASCII.openBracket) {
                let close = Int(file.matching[cursor])
                guard close > cursor else { return nil }
                cursor = close + 1
                continue
            }
            if isGuard, file.word(cursor) == .else {
                return file.isPunct(cursor + 1, ASCII.openBrace) ? (cursor, cursor + 1) : nil
            }
            if file.isPunct(cursor, ASCII.openBrace) { return isGuard ? nil : (cursor, cursor) }
            cursor += 1
        }
        return nil
    }

    /// A condition that is, or has as one of its `,`/`&&` parts, a test of one of `flags`: `flag`, `self.flag`,
    /// `Type.flag`, `Type.shared.flag`, negated by `!` or compared with `== false` / `== true`. A condition with
    /// `||` is not a plain test.
    private func flagTest(_ file: SourceFile, from start: Int, to end: Int, flags: Set<String>) -> (Int, Bool)? {
        var found: (Int, Bool)?
        var part = start
        var cursor = start
        while cursor <= end {
            let atEnd = cursor == end
            if !atEnd, file.isPunct(cursor, ASCII.pipe), file.isPunct(cursor + 1, ASCII.pipe) { return nil }
            let separates =
                atEnd || file.isPunct(cursor, ASCII.comma)
                || file.isPunct(cursor, ASCII.ampersand) && file.isPunct(cursor + 1, ASCII.ampersand)
            if separates {
                if found == nil, let test = partTest(file, part, cursor, flags: flags) { found = test }
                cursor += atEnd || file.isPunct(cursor, ASCII.comma) ? 1 : 2
                part = cursor
                continue
            }
            if file.isPunct(cursor, ASCII.openParen) || file.isPunct(cursor, ASCII.openBracket) {
                let close = Int(file.matching[cursor])
                guard close > cursor, close < end else { return nil }
                cursor = close + 1
                continue
            }
            cursor += 1
        }
        return found
    }

    /// One part of a condition: the flag's name token, and whether the part is true when the flag is false.
    private func partTest(_ file: SourceFile, _ start: Int, _ end: Int, flags: Set<String>) -> (Int, Bool)? {
        var first = start
        var negated = false
        if file.isPunct(first, ASCII.bang) {
            negated = true
            first += 1
        }
        var last = end
        if !negated, last - first >= 4, file.isPunct(last - 3, ASCII.equals), file.isPunct(last - 2, ASCII.equals) {
            switch file.word(last - 1) {
            case .false: negated = true
            case .true: break
            default: return nil
            }
            last -= 3
        }
        // `name` or a member chain `a.b.name` whose first part is `self`, `Self` or a type.
        guard last > first, file.isIdentifier(last - 1), flags.contains(file.text(last - 1)) else { return nil }
        var cursor = last - 1
        while cursor > first {
            guard file.isPunct(cursor - 1, ASCII.dot), file.isIdentifier(cursor - 2) else { return nil }
            cursor -= 2
        }
        if cursor < last - 1 {
            let word = file.word(cursor)
            guard word == .`self` || word == .selfType || file.text(cursor).first?.isUppercase == true else {
                return nil
            }
        }
        return (last - 1, negated)
    }

    /// Whether the code the flag guards sets it: `name = true`, through any member chain.
    private func setsTrue(_ name: String, in region: Range<Int>, of file: SourceFile) -> Bool {
        region.contains { token in
            file.isIdentifier(token) && file.isPunct(token + 1, ASCII.equals) && file.word(token + 2) == .true
                && file.text(token) == name
        }
    }

    /// Whether a body leaves the enclosing code: it holds a `return`, `throw`, `break` or `continue`.
    private func exits(_ file: SourceFile, _ open: Int, _ close: Int) -> Bool {
        for token in (open + 1)..<close {
            switch file.word(token) {
            case .return, .throw, .break, .continue: return true
            default: continue
            }
        }
        return false
    }

    /// Whether `region` of callable `id` holds a submit, or a call of a function that submits.
    private func submits(
        in region: Range<Int>, of id: CallableID, file fileIndex: Int, skipping handlers: [HandlerRegion],
        direct: Set<CallableID>, submitting: Set<CallableID>
    )
        -> Bool
    {
        let index = project.index
        let summary = project.summary(fileIndex)
        for call in summary.calls where call.caller == id.index && region.contains(Int(call.token)) {
            if handlers.contains(where: { $0.contains(Int32(fileIndex), call.token) }) { continue }
            if call.name == "submit", call.labels == ["_"], direct.contains(id) {
                return true
            }
            if index.resolve(call: call, from: Int32(fileIndex)).contains(where: { submitting.contains($0) }) {
                return true
            }
        }
        return false
    }

    /// The callables that submit a request a chain is made of — a refresh or processing request — themselves
    /// (`direct`), and those with the ones that call them (`submitting`): the index's submitting functions, less those
    /// whose only requests are continued-processing ones (such a task runs once for what the user started, so no flag
    /// can stop a chain of it).
    private func chainSubmitting() -> (direct: Set<CallableID>, submitting: Set<CallableID>) {
        let index = project.index
        var seeds: [CallableID] = []
        for (fileIndex, summary) in index.files.enumerated() {
            var continuedOnly: Set<Int32> = []
            var other: Set<Int32> = []
            for call in summary.calls {
                switch call.name {
                case "BGContinuedProcessingTaskRequest": continuedOnly.insert(call.caller)
                case "BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "BGHealthResearchTaskRequest":
                    other.insert(call.caller)
                default: continue
                }
            }
            continuedOnly.subtract(other)
            for (callableIndex, callable) in summary.callables.enumerated()
            where callable.containsSubmit && !continuedOnly.contains(Int32(callableIndex)) {
                seeds.append(CallableID(file: Int32(fileIndex), index: Int32(callableIndex)))
            }
        }
        return (Set(seeds), index.withCallers(seeds))
    }

    private func handlerRegions() -> [HandlerRegion] {
        let handlers = HandlerCheck(project: project)
        var regions: [HandlerRegion] = []
        for fileIndex in 0..<project.fileCount {
            for registration in project.summary(fileIndex).registrations {
                if let region = handlers.region(of: registration, file: fileIndex) { regions.append(region) }
            }
        }
        return regions
    }

    /// Whether the test at `test` in callable `id` runs more than once in a process: it is inside a launch handler,
    /// or its function is reached from one (up to eight calls up), or runs on every change of app state.
    private func runsRepeatedly(_ id: CallableID, test: Int, file: Int, regions: [HandlerRegion]) -> Bool {
        let index = project.index
        if regions.contains(where: { $0.contains(Int32(file), Int32(test)) }) { return true }
        var visited: Set<CallableID> = []
        var work: [(callable: CallableID, depth: Int)] = [(id, 0)]
        while let (callable, depth) = work.popLast() {
            guard visited.insert(callable).inserted else { continue }
            if index.runsOnStateChange(callable) { return true }
            let info = index.callable(callable)
            if info.open >= 0, regions.contains(where: { $0.file == callable.file && $0.open == info.open }) {
                return true
            }
            guard depth < 8 else { continue }
            for call in index.callers(of: callable) {
                let site = index.call(call)
                if regions.contains(where: { $0.contains(call.file, site.token) }) { return true }
                work.append((index.caller(of: call), depth + 1))
            }
        }
        return false
    }
}
