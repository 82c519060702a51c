// One file for one type: the walk is a recursive descent over a body's statements whose steps call each other and
// share its private state, so splitting it would only widen what each step may touch.

/// Walks the tokens of one body, tracking whether the current path has finished its obligation.
struct Walker {
    let paths: CompletionPaths
    let file: SourceFile
    let fileIndex: Int
    var aliases: Set<String>
    let depth: Int
    /// What the walk has found so far, its `fall` left to `outcome(_:)`.
    var found = PathOutcome()
    /// How many "finished once" flag tests the walk is inside.
    var guarded = 0
    /// The name token of the call that last finished the work (`reportNewIncomingCall` …, or a call it is handed
    /// to), so that the closure passed to it is known to run after; `finishes` counts the finishing steps seen.
    private var finishedBy = -1
    private var finishes = 0
    /// A `try` inside a `do` that `catch`es was met after the work was finished: the `catch` may then run with the
    /// work already finished, and finishing it there again is a repeat.
    private var triedAfterFinishing = false
    /// The work was kept for later (`self.current = task`) on the walk: finishing it afterwards is the first time.
    private var keptForLater = false
    /// A `defer` finishes the work only under a condition (`if !completed { task.setTaskCompleted(…) }`, a flag the
    /// path sets as it finishes): it runs after the path's own finishing, which is then no repeat.
    private var finishedByConditionalDefer = false
    /// The `switch` and loop bodies the walk is inside, innermost last: a `break` leaves the innermost, and when that
    /// is a `switch` the path it takes out of a `guard`'s `else` joins the cases' ends (`exits`).
    private var breakTargets: [(body: Range<Int>, exits: [Fall]?)] = []
    /// Local functions declared in the body walked that finish the work they capture.
    private var localFinishers: Set<String> = []

    init(paths: CompletionPaths, file: SourceFile, fileIndex: Int, aliases: Set<String>, depth: Int) {
        self.paths = paths
        self.file = file
        self.fileIndex = fileIndex
        self.aliases = aliases
        self.depth = depth
    }

    func outcome(_ fall: Fall) -> PathOutcome {
        var outcome = found
        outcome.fall = fall
        return outcome
    }

    private func site(_ token: Int) -> Site { Site(fileIndex, token) }

    private mutating func finish(_ state: inout Fall) {
        found.mentions = true
        finishes += 1
        if case .open = state { state = .completed }
    }

    private func isOpen(_ state: Fall) -> Bool {
        if case .open = state { return true }
        return false
    }

    // MARK: Blocks

    /// Walks tokens `lo..<hi`, entering with `entry`; returns how the paths reaching `hi` leave.
    mutating func block(_ lo: Int, _ hi: Int, entry: Fall, inDo: Bool) -> Fall {
        if case .none = entry { return .none }
        var state = entry
        var index = lo
        while index < hi {
            let token = file.tokens[index]
            if token.kind == .punctuation {
                let byte = file.bytes[Int(token.start)]
                if byte == ASCII.openBrace {
                    index = brace(at: index, &state, inDo: inDo)
                    continue
                }
                if byte == ASCII.closeBrace {
                    // Closing a block the range started inside: the path goes on after it, but not into the
                    // `else` or `catch` that follows.
                    index = skipAlternatives(after: index + 1, limit: hi)
                    continue
                }
                index += 1
                continue
            }
            if token.kind == .directive, token.word == .if, let group = builtBranches(from: index, limit: hi) {
                // `#if … #else … #endif`: one branch is built, never two one after the other; a branch the app's
                // build leaves out (`#if targetEnvironment(simulator)`, the `#else` of `#if canImport(CallKit)`) is no
                // path, and when none may be built the path goes on past them all.
                let entry = state
                var results = group.branches.map { block($0.lowerBound, $0.upperBound, entry: entry, inDo: inDo) }
                if !group.exhaustive { results.append(entry) }
                state = merge(entry, results)
                index = group.end
                continue
            }
            guard token.kind == .identifier else {
                index += 1
                continue
            }
            if token.word.isReserved, token.word != .default, token.word != .case,
                file.isPunct(index + 1, ASCII.colon) || file.isPunct(index - 1, ASCII.dot)
            {
                // A keyword as an argument label or a member (`fetch(for: id) { … }`, `.default`) starts no statement.
                index += 1
                continue
            }
            if let next = statement(token.word, at: index, hi, &state, inDo: inDo) {
                index = next
                continue
            }
            switch token.word {
            case .return, .throw:
                let end = file.expressionEnd(from: index + 1, limit: hi)
                if token.word == .return, end > index + 1, file.isIdentifier(index + 1),
                    aliases.contains(file.text(index + 1)),
                    end == index + 2 || file.word(index + 2) == .as
                        || end == index + 4 && file.isPunct(index + 2, ASCII.dot) && file.is(index + 3, "rawValue")
                {
                    // Returning the obligation (a task identifier also as its `rawValue`) hands it to the caller.
                    found.escaped = true
                    found.handedOutside = true
                    found.finishesLater = true
                    finish(&state)
                }
                // The returned or thrown expression may finish the work itself (`return completion(.noData)`).
                state = block(index + 1, end, entry: state, inDo: inDo)
                if isOpen(state) {
                    if token.word == .return {
                        returnUnfinished(at: index, state)
                    } else if !inDo {
                        found.thrown.append(site(index))
                    }
                }
                return .none
            case .break, .continue, .fallthrough:
                return state
            case .try:
                if !file.isPunct(index + 1, ASCII.question), !file.isPunct(index + 1, ASCII.bang), !inDo,
                    isOpen(state)
                {
                    found.thrown.append(site(index))
                }
                if inDo, case .completed = state, !file.isPunct(index + 1, ASCII.question),
                    !file.isPunct(index + 1, ASCII.bang)
                {
                    triedAfterFinishing = true
                }
            case .let, .var:
                noteAlias(at: index)
            default:
                break
            }
            if token.word == .none || !token.word.isReserved {
                index = identifier(at: index, &state, inDo: inDo)
                continue
            }
            index += 1
        }
        return state
    }

    /// Walks the statement `word` begins at `start` (`if`, `guard`, `switch`, `do`, a loop, `defer`), or steps over
    /// an `else` or `catch` chain, and returns the index after it; `nil` when `word` begins none of them.
    private mutating func statement(_ word: Word, at start: Int, _ limit: Int, _ state: inout Fall, inDo: Bool)
        -> Int?
    {
        switch word {
        case .if: ifStatement(at: start, limit, &state, inDo: inDo)
        case .guard: guardStatement(at: start, limit, &state, inDo: inDo)
        case .switch: switchStatement(at: start, limit, &state, inDo: inDo)
        case .do: doStatement(at: start, limit, &state, inDo: inDo)
        case .for, .while: loop(at: start, limit, &state, inDo: inDo)
        case .repeat: repeatStatement(at: start, limit, &state, inDo: inDo)
        case .defer: deferStatement(at: start, limit, &state, inDo: inDo)
        case .else, .catch: skipAlternatives(after: start, limit: limit)
        default: nil
        }
    }

    /// The branches of the `#if` at `start` that an iOS device build may hold (`BuildCondition`), whether one of them
    /// surely is (an `#else`, or a condition that holds), and the index after its `#endif`. `nil` for a lone `#if`
    /// whose condition is not known (its body is walked as code that is built), for a group that does not end before
    /// `limit`, or one whose branches do not each hold whole brackets.
    private func builtBranches(from start: Int, limit: Int) -> (branches: [Range<Int>], exhaustive: Bool, end: Int)? {
        var branches: [(range: Range<Int>, value: Bool?)] = []
        var head = start
        var depth = 0
        var index = start + 1
        while index < limit {
            defer { index += 1 }
            guard file.tokens[index].kind == .directive else { continue }
            switch file.word(index) {
            case .if:
                depth += 1
            case .else where depth == 0:
                branches.append((head + 1..<index, file.branchCondition(at: head)))
                head = index
            case .else:
                break
            default:
                guard depth == 0 else {
                    depth -= 1
                    continue
                }
                branches.append((head + 1..<index, file.branchCondition(at: head)))
                guard
                    branches.allSatisfy({ branch in
                        branch.range.allSatisfy {
                            file.matching[$0] < 0 || branch.range.contains(Int(file.matching[$0]))
                        }
                    })
                else { return nil }
                if branches.count == 1, branches[0].value == nil { return nil }
                var built: [Range<Int>] = []
                for branch in branches where branch.value != false {
                    built.append(branch.range)
                    if branch.value == true { return (built, true, index + 1) }
                }
                return (built, false, index + 1)
            }
        }
        return nil
    }

    /// Steps over `else { … }`, `else if … { … } else { … }` and `catch … { … }` chains starting at `index`.
    private func skipAlternatives(after start: Int, limit: Int) -> Int {
        var index = start
        while index < limit, file.word(index) == .else || file.word(index) == .catch {
            guard let open = bodyOpen(from: index + 1, limit: limit) else { return limit }
            index = Int(file.matching[open]) + 1
        }
        return index
    }

    /// The `{` that opens the body of the statement whose head starts at `start`: the first brace outside
    /// parentheses and brackets.
    private func bodyOpen(from start: Int, limit: Int) -> Int? {
        var index = start
        while index < limit {
            if file.isPunct(index, ASCII.openBrace) { return Int(file.matching[index]) > index ? index : nil }
            if file.isPunct(index, ASCII.openParen) || file.isPunct(index, ASCII.openBracket) {
                let close = Int(file.matching[index])
                guard close > index else { return nil }
                index = close + 1
                continue
            }
            index += 1
        }
        return nil
    }

    private mutating func brace(at open: Int, _ state: inout Fall, inDo: Bool) -> Int {
        let close = Int(file.matching[open])
        guard close > open else { return open + 1 }
        let scope = file.scopes[Int(file.scopeOf[open])]
        switch scope.kind {
        case .closure:
            closure(scope, open: open, close: close, &state)
        case .control:
            state = block(open + 1, close, entry: state, inDo: inDo)
        case .function:
            // A local function: declared here, not run here. One that finishes the work it captures
            // (`func handler() { completionHandler(.newData) }`) hands the work on where it is passed by name.
            if scope.name >= 0 {
                var inner = Walker(paths: paths, file: file, fileIndex: fileIndex, aliases: aliases, depth: depth)
                _ = inner.block(open + 1, close, entry: .open(site(open)), inDo: false)
                if inner.found.mentions, !inner.found.escaped { localFinishers.insert(file.text(Int(scope.name))) }
            }
        default:
            // A local type: declared here, not run here.
            break
        }
        return close + 1
    }

    private func isExpirationHandler(_ scope: Scope) -> Bool {
        (scope.assignee >= 0 && file.is(Int(scope.assignee), "expirationHandler"))
            || (scope.label >= 0 && file.is(Int(scope.label), "expirationHandler"))
            || (scope.name >= 0 && file.isBeginBackgroundTask(Int(scope.name)))
    }

    private mutating func closure(_ scope: Scope, open: Int, close: Int, _ state: inout Fall) {
        if isExpirationHandler(scope) {
            if scope.assignee >= 0 { found.setsExpirationHandler = true }
            return
        }
        let body = CompletionPaths.closureParameters(file, open: open).bodyStart
        // A local that finishes the work when called (`let finish = { … }`, or the closure a project function wraps it
        // in, `let completeOnce = makeOnce { task.setTaskCompleted(success: $0) }`): declared here, it finishes the
        // work where it is called.
        if let declared = file.declaredName(ofClosureAt: open) ?? wrappedBy(scope) {
            let name = file.text(declared)
            if aliases.contains(name) { return }
            var inner = Walker(paths: paths, file: file, fileIndex: fileIndex, aliases: aliases, depth: depth)
            _ = inner.block(body, close, entry: .open(site(open)), inDo: false)
            if inner.found.mentions, !inner.found.escaped {
                aliases.insert(name)
                return
            }
        }
        if isElementClosure(scope) {
            elementClosure(open: open, from: body, to: close, &state)
            return
        }
        if scope.name >= 0, Int(scope.name) == finishedBy {
            // The callback of the call that finished the work (`reportNewIncomingCall(…) { error in … }`) runs after
            // it: its paths owe nothing, though finishing again in it is a repeat.
            var inner = Walker(paths: paths, file: file, fileIndex: fileIndex, aliases: aliases, depth: depth)
            inner.guarded = guarded
            _ = inner.block(body, close, entry: .completed, inDo: false)
            found.addFacts(of: inner.found)
            return
        }
        var inner = Walker(paths: paths, file: file, fileIndex: fileIndex, aliases: aliases, depth: depth)
        let fall = inner.block(body, close, entry: .open(site(open)), inDo: false)
        found.addFacts(of: inner.found)
        guard inner.found.mentions else { return }
        if paths.obligation == .taskCompleted, isTaskClosure(scope) {
            found.completionsInTasks += uncancellableCompletions(
                from: body, to: close, closure: open, marks: found.expirationMarks)
        } else if paths.obligation == .taskCompleted,
            scope.name >= 0 || scope.assignee >= 0 && file.is(Int(scope.assignee), "completionBlock")
        {
            // A callback handed to a call, or an operation's completion block, which runs once the operation ends.
            var sites = unconditionalCompletions(from: body, to: close, closure: open)
            let setsHandler = (body..<close).contains(where: assignsExpirationHandler)
            if sites.isEmpty, !isOpen(fall), !setsHandler, !testsState(from: body, to: close, closure: open) {
                // Every path through the callback that does not leave early (a leak of its own) completes the task:
                // whichever it takes when it comes after the time has run out, it completes the task again. One that
                // sets the expiration handler itself is the handler's own work moved (`unconditionalCompletions`).
                sites = completions(from: body, to: close, closure: open)
            }
            found.completionsInCallbacks += sites
        }
        found.finishesLater = true
        finish(&state)
        // A closure that finishes the work, kept in a property (`onFinish = { … completionHandler(.newData) }`).
        if scope.assignee >= 0, file.isPunct(Int(scope.assignee) + 1, ASCII.equals) {
            noteOverwrite(ofPropertyAssignedAt: Int(scope.assignee) + 1)
        }
        if paths.obligation == .taskCompleted, let site = continuationThatMayNotRun(scope) {
            found.uncalledContinuations.append(site)
        } else if paths.obligation == .completionHandlerCalled || paths.obligation == .incomingCallReported {
            // A completion handler or a push handed on inside a closure a helper may never call: where the helper
            // leaves without calling it, the callback's obligation is left unmet; where it keeps it in place of one
            // it kept before, the earlier one is never called.
            found.leaks += continuationSkips(scope)
            if paths.obligation == .completionHandlerCalled, let (callee, parameter) = continuationTarget(scope) {
                found.overwrites += paths.overwritesCallback(callee, parameter: parameter)
            }
        }
        if paths.obligation == .taskCompleted, scope.name >= 0, file.isPunct(Int(scope.name) - 1, ASCII.dot),
            file.isPunct(Int(scope.name) - 2, ASCII.question)
        {
            found.skippedContinuations.append(site(Int(scope.name)))
        }
        // A Combine `sink` whose value closure finishes the work owes nothing on completion: a publisher that
        // delivers its one value and then `.finished` (a `Future`) has already finished it, unless the chain may
        // finish without a value.
        if valueClosureFinishes(after: scope, close: close) { return }
        if isCountdown(from: open + 1, to: close) || isRepeating(scope) { return }
        // The closure finishes the work: its unfinished paths, and errors that end it, are the leaks.
        var leaks = inner.found.leaks + inner.found.thrown
        if case .open(let origin) = fall { leaks.append(origin) }
        if scope.name >= 0, file.is(Int(scope.name), "subscribe") {
            // An event closure (`subscribe { event in switch event { case .next: … } }`) runs once per event: an
            // element that is not the last owes nothing, the sequence's end (`.completed`, `.error`) does.
            // Each site a stand-in speaks for is judged on its own.
            let elements = elementCases(from: open + 1, to: close)
            leaks = leaks.flatMap { found.returnedUnfinished[$0] ?? [$0] }
            leaks.removeAll { leak in elements.contains { $0.contains(Int(leak.token)) } }
        }
        found.leaks += leaks
    }

    /// Whether the closure opened at `open` calls `setTaskCompleted` on the task in its own body, not in code it
    /// dispatches or under a condition, itself or through a local closure or nested function that does
    /// (`markComplete(success: false)`): when it returns, the task is complete.
    private func completesTask(in open: Int, _ close: Int) -> Bool {
        let own = file.scopeOf[open]
        for index in (open + 1)..<close where Int(file.scopeOf[index]) == Int(own) {
            if isCompletionOfTask(index) { return true }
            guard file.isIdentifier(index), file.word(index) == .none, !file.isPunct(index - 1, ASCII.dot),
                file.isPunct(index + 1, ASCII.openParen)
            else { continue }
            let name = file.text(index)
            if aliases.contains(name) { return true }
            // A function nested in the body that completes the task it captures (`func markComplete(success:)`).
            let labels = file.labels(ofCallAt: index + 1)
            let resolved = paths.project.resolved(file: fileIndex, token: index, name: name, labels: labels)
            if let nested = nestedFunction(among: resolved, visibleAt: index), captures(nested),
                paths.helper(nested, parameters: [], depth: depth + 1, captured: aliases)?.mentions == true
            {
                return true
            }
        }
        return false
    }

    /// `task.setTaskCompleted` or `task?.setTaskCompleted`, on a name for the task.
    private func isCompletionOfTask(_ index: Int) -> Bool {
        guard file.is(index, "setTaskCompleted"), file.isPunct(index - 1, ASCII.dot) else { return false }
        let receiver = file.isPunct(index - 2, ASCII.question) ? index - 3 : index - 2
        return file.isIdentifier(receiver) && aliases.contains(file.text(receiver))
    }

    /// `Task { … }` or `Task.detached { … }`: work that runs on its own and that cancelling only asks to stop.
    private func isTaskClosure(_ scope: Scope) -> Bool {
        guard scope.name >= 0 else { return false }
        let name = Int(scope.name)
        return file.is(name, "Task")
            || (file.is(name, "detached") && file.isPunct(name - 1, ASCII.dot) && file.is(name - 2, "Task"))
    }

    /// The completions of the task in the `Task` closure `body..<close` that come after an `await` and that a run
    /// of the closure reaches whatever it finds: in its own body or a `do` or `catch` block of it, a `guard`'s `else`
    /// (`guard !items.isEmpty else { return task.setTaskCompleted(success: true) }`) or an `if` on something else than
    /// the expiration, with no test of `Task.isCancelled` (or `checkCancellation()`), nor of one of `marks` (the flags
    /// the expiration handler sets), before them.
    private func uncancellableCompletions(from body: Int, to close: Int, closure open: Int, marks: Set<String>)
        -> [Site]
    {
        let own = Int(file.scopeOf[open])
        var awaited = false
        var sites: [Site] = []
        // A completion in a `defer` of the body's own level runs when the body ends, after every `await` of it.
        var deferred: Site?
        for index in body..<close {
            if file.word(index) == .await { awaited = true }
            if file.is(index, "checkCancellation"), cancellationFallsThrough(at: index, within: own) { continue }
            if file.is(index, "isCancelled") || file.is(index, "checkCancellation") { return sites }
            // A look at a flag the expiration handler sets (`guard !expired else { return }`) tells the paths apart.
            if file.isIdentifier(index), !marks.isEmpty, marks.contains(file.text(index)) { return sites }
            if deferred == nil, isCompletionOfTask(index), case let scope = file.scopes[Int(file.scopeOf[index])],
                scope.kind == .control, scope.control == .defer, Int(scope.parent) == own
            {
                deferred = site(index)
                continue
            }
            guard awaited, isCompletionOfTask(index) else { continue }
            var scope = Int(file.scopeOf[index])
            var reached = true
            while scope != own, scope > 0 {
                let current = file.scopes[scope]
                // A guard's `else` is the one `else` not written after a `}`.
                let isGuardElse = current.control == .else && !file.isPunct(Int(current.head) - 1, ASCII.closeBrace)
                // An `if` on something else than the expiration (`if let callback = onSync { await callback(); … }`)
                // is taken whether time has run out or not: one that names no flag the expiration handler sets and
                // nothing named like a state of stopping (`isSuspended`, `didExpire`, `isCancelled` …).
                let isUnrelatedIf =
                    current.control == .if && current.head >= 0
                    && !(Int(current.head)..<Int(current.open)).contains {
                        file.isIdentifier($0) && (marks.contains(file.text($0)) || Self.namesStopping(file.text($0)))
                    }
                guard current.kind == .control,
                    current.control == .do || current.control == .catch || isGuardElse || isUnrelatedIf
                else {
                    reached = false
                    break
                }
                scope = Int(current.parent)
            }
            if reached, scope == own { sites.append(site(index)) }
        }
        if let deferred, awaited { sites.append(deferred) }
        return sites
    }

    /// Whether `name` reads like a state of work stopped or over (`isSuspended`, `expired`, `isCancelled`, `done`).
    private static func namesStopping(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return stoppingStates.contains(where: lowered.contains)
    }

    private static let stoppingStates = [
        "cancel", "expir", "suspend", "stop", "finish", "complet", "done", "timeout", "timedout", "terminat", "abort",
    ]

    /// Whether the `checkCancellation()` at `index` throws into a `do` (of the closure whose scope is `own`) whose
    /// `catch` clauses neither return nor throw: the path goes on after them, cancelled or not
    /// (`do { try await sync(); try Task.checkCancellation() } catch { ok = false }`, then the completion).
    private func cancellationFallsThrough(at index: Int, within own: Int) -> Bool {
        var scope = Int(file.scopeOf[index])
        while scope != own, scope > 0 {
            let current = file.scopes[scope]
            guard current.kind == .control else { return false }
            if current.control == .do { break }
            scope = Int(current.parent)
        }
        guard scope != own, scope > 0 else { return false }
        var cursor = Int(file.scopes[scope].close) + 1
        guard file.word(cursor) == .catch else { return false }
        while file.word(cursor) == .catch {
            var open = cursor + 1
            while open < file.count, !file.isPunct(open, ASCII.openBrace) { open += 1 }
            guard open < file.count, Int(file.matching[open]) > open else { return false }
            let close = Int(file.matching[open])
            if (open..<close).contains(where: { file.word($0) == .return || file.word($0) == .throw }) { return false }
            cursor = close + 1
        }
        return true
    }

    /// The completions of the task in the callback closure `body..<close` that every run of it reaches: at its own
    /// level, after no `if`, `guard`, `switch` or exit of its own. A closure that sets the expiration handler itself
    /// before completing (`queue.async { task.expirationHandler = { … }; work(); task.setTaskCompleted(…) }`) is the
    /// handler's own work moved to a queue: the expiration handler cannot run before it, and it completes the task as
    /// the handler's body would, not as a callback that may come after the time has run out.
    private func unconditionalCompletions(from body: Int, to close: Int, closure open: Int) -> [Site] {
        let own = Int(file.scopeOf[open])
        for index in body..<close where Int(file.scopeOf[index]) == own {
            switch file.word(index) {
            case .switch: return completionsInEveryCase(of: index, before: close)
            case .if, .guard, .return, .throw, .try: return []
            default: break
            }
            if assignsExpirationHandler(index) { return [] }
            if file.isIdentifier(index), Int(file.scopeOf[index]) == own, isCompletionOfTask(index) {
                return [site(index)]
            }
        }
        return []
    }

    /// Whether token `index` starts an assignment of an expiration handler (`task.expirationHandler = …`).
    private func assignsExpirationHandler(_ index: Int) -> Bool {
        file.is(index, "expirationHandler") && file.isPunct(index + 1, ASCII.equals)
    }

    /// The completions of the task in the callback `body..<close`, in its own body or the blocks of its statements,
    /// not in closures or functions nested in it.
    private func completions(from body: Int, to close: Int, closure open: Int) -> [Site] {
        let own = Int(file.scopeOf[open])
        var sites: [Site] = []
        for index in body..<close where file.isIdentifier(index) && isCompletionOfTask(index) {
            var scope = Int(file.scopeOf[index])
            while scope != own, scope > 0, file.scopes[scope].kind == .control {
                scope = Int(file.scopes[scope].parent)
            }
            if scope == own { sites.append(site(index)) }
        }
        return sites
    }

    /// Whether the callback `body..<close` tests something other than what it was given or made before it completes
    /// the task: state it captures (`guard !expired`, `self.isDone`) or a cancellation (`Task.isCancelled`), which an
    /// expiration handler may have set first. Its parameters, its own locals, names a condition binds and types
    /// (`result as? FlutterError`) are no such test, nor is an unwrapping of `self`.
    private func testsState(from body: Int, to close: Int, closure open: Int) -> Bool {
        var locals = Set(CompletionPaths.closureParameters(file, open: open).names)
        for index in body..<close {
            // A nested closure's parameters are what it was given (`refresh { success in if success { … } }`).
            if file.isPunct(index, ASCII.openBrace), file.scopes[Int(file.scopeOf[index])].kind == .closure,
                Int(file.scopes[Int(file.scopeOf[index])].open) == index
            {
                locals.formUnion(CompletionPaths.closureParameters(file, open: index).names)
            }
            let word = file.word(index)
            if word == .let || word == .var || word == .case, file.isIdentifier(index + 1) {
                locals.insert(file.text(index + 1))
            }
            // A loop's own names (`for id in ids`, `for (key, value) in pairs`).
            if word == .for {
                var cursor = index + 1
                while cursor < close, file.word(cursor) != .in, !file.isPunct(cursor, ASCII.openBrace) {
                    if file.isIdentifier(cursor), file.word(cursor) == .none { locals.insert(file.text(cursor)) }
                    cursor += 1
                }
            }
            guard word == .if || word == .guard else { continue }
            var cursor = index + 1
            while cursor < close, !file.isPunct(cursor, ASCII.openBrace), file.word(cursor) != .else {
                if file.word(cursor) == .let || file.word(cursor) == .var, file.isIdentifier(cursor + 1) {
                    locals.insert(file.text(cursor + 1))
                }
                // `Task.isCancelled`, a URL session task's `(error as? URLError)?.code == .cancelled`.
                if file.is(cursor, "isCancelled") || file.is(cursor, "NSURLErrorCancelled")
                    || file.is(cursor, "cancelled") && file.isPunct(cursor - 1, ASCII.dot)
                {
                    return true
                }
                if file.word(cursor) == .`self`, file.isPunct(cursor + 1, ASCII.dot) { return true }
                // (An argument's label, `forPrimaryKey: id`, names nothing.)
                if file.isIdentifier(cursor), file.word(cursor) == .none, !file.isPunct(cursor - 1, ASCII.dot),
                    !file.isPunct(cursor + 1, ASCII.openParen), !file.isPunct(cursor + 1, ASCII.colon),
                    case let name = file.text(cursor), name.first?.isUppercase == false, !locals.contains(name)
                {
                    return true
                }
                cursor += 1
            }
        }
        return false
    }

    /// The completions of the task in a `switch` (at `keyword`) each of whose cases completes it, at the case's own
    /// level before any `if`, `guard` or exit (`case .finished: task.setTaskCompleted(success: true)`, `case
    /// .failure: task.setTaskCompleted(success: false)`): a `switch` is exhaustive, so every run completes the task
    /// in one of them. None when a case may leave it uncompleted.
    private func completionsInEveryCase(of keyword: Int, before limit: Int) -> [Site] {
        var open = keyword + 1
        while open < limit,
            !file.isPunct(open, ASCII.openBrace) || file.scopes[Int(file.scopeOf[open])].control != .switch
        {
            open += 1
        }
        guard open < limit, Int(file.matching[open]) > open else { return [] }
        let cases = Int(file.scopeOf[open])
        var sites: [Site] = []
        var completed = true
        var blocked = false
        for index in (open + 1)..<Int(file.matching[open]) where Int(file.scopeOf[index]) == cases {
            switch file.word(index) {
            case .case, .default:
                // The previous case must have completed; an `if case` inside a case body ends the search here too
                // (its `if` has blocked the case), which only leaves a completion unreported.
                guard completed else { return [] }
                completed = false
                blocked = false
            case .if, .guard, .switch, .return, .throw, .try, .break, .fallthrough: blocked = true
            default:
                if !blocked, !completed, file.isIdentifier(index), isCompletionOfTask(index) {
                    sites.append(site(index))
                    completed = true
                }
            }
        }
        return completed ? sites : []
    }

    /// Whether the closure `open..<close`, the expiration handler set at `assignment`, stops some work: it calls a
    /// function named like one that cancels, invalidates, stops or suspends, other than a cancel that stops nothing.
    private func stopsWork(in open: Int, _ close: Int, setAt assignment: Int) -> Bool {
        let body = file.scopes[Int(file.scopeOf[assignment])]
        for index in (open + 1)..<close where file.isIdentifier(index) && file.isPunct(index + 1, ASCII.openParen) {
            let name = file.text(index)
            // A cancel that stops nothing, on a name of the body: `queue.cancelAllOperations()` where every operation
            // of the queue goes on when cancelled once running, `work.cancel()` of a URL session task whose completion
            // handler runs all the same.
            if file.isPunct(index - 1, ASCII.dot), file.isIdentifier(index - 2) {
                let receiver = file.text(index - 2)
                if name == "cancelAllOperations", body.open >= 0, body.close > body.open,
                    addedOperationsIgnoreCancellation(
                        receiver, in: Int(body.open)..<Int(body.close), completionBlocks: false) == true
                {
                    continue
                }
                if name == "cancel",
                    isSessionTaskWithHandler(receiver, before: open) || isStartedWorkItem(receiver, before: open)
                {
                    continue
                }
            }
            if ["cancel", "invalidate", "stop", "suspend"].contains(where: { name.hasPrefix($0) }) { return true }
        }
        return false
    }

    /// Whether `name` is bound, in the function or closure around `index` and before it, to a URL session task made
    /// with a completion handler (`let work = URLSession.shared.dataTask(with: request) { … }`): cancelling that task
    /// calls the handler all the same (with `NSURLErrorCancelled`), so the cancel stops nothing the handler does.
    private func isSessionTaskWithHandler(_ name: String, before index: Int) -> Bool {
        for token in bindings(of: name, before: index) {
            // `URLSession.shared.dataTask(`, `self.session.uploadTask(`: the call's name a few tokens on.
            for call in (token + 2)..<min(token + 10, index)
            where file.isPunct(call + 1, ASCII.openParen)
                && ["dataTask", "uploadTask", "downloadTask"].contains(file.text(call))
            {
                let closeParen = Int(file.matching[call + 1])
                guard closeParen > call else { return false }
                return file.isPunct(closeParen + 1, ASCII.openBrace)
                    || ((call + 2)..<closeParen).contains { file.is($0, "completionHandler") }
            }
        }
        return false
    }

    /// The tokens naming `name` where `let name =` or `var name =` binds it in the function around `index`, before it.
    private func bindings(of name: String, before index: Int) -> [Int] {
        guard let callable = file.callable(containing: index) else { return [] }
        let start = Int(file.scopes[callable].open)
        guard start >= 0, start < index else { return [] }
        return (start..<index).filter { token in
            file.text(token) == name && file.isPunct(token + 1, ASCII.equals)
                && (file.word(token - 1) == .let || file.word(token - 1) == .var)
        }
    }

    /// Whether `name` is bound, in the function or closure around `index` and before it, to a `DispatchWorkItem` whose
    /// block never reads `isCancelled`, which that function hands to a queue at once (`queue.async(execute: work)`):
    /// cancelling a work item "does not affect the execution of a work item that has already begun", and by the time
    /// the expiration handler runs this one has.
    /// (https://developer.apple.com/documentation/dispatch/dispatchworkitem/cancel())
    private func isStartedWorkItem(_ name: String, before index: Int) -> Bool {
        guard let callable = file.callable(containing: index) else { return false }
        let end = Int(file.scopes[callable].close)
        guard end > index else { return false }
        var block: Range<Int>?
        for token in bindings(of: name, before: index) where file.is(token + 2, "DispatchWorkItem") {
            // `DispatchWorkItem { … }`, `DispatchWorkItem(qos: .utility) { … }`, `DispatchWorkItem(block: { … })`.
            var cursor = token + 3
            if file.isPunct(cursor, ASCII.openParen) {
                let closeParen = Int(file.matching[cursor])
                guard closeParen > cursor else { return false }
                let inner = ((cursor + 1)..<closeParen).first { file.isPunct($0, ASCII.openBrace) }
                cursor = inner ?? closeParen + 1
            }
            guard file.isPunct(cursor, ASCII.openBrace), Int(file.matching[cursor]) > cursor else { return false }
            block = cursor..<Int(file.matching[cursor])
        }
        guard let block, !block.contains(where: { file.is($0, "isCancelled") }) else { return false }
        // `queue.async(execute: work)`, not `asyncAfter`, whose deadline the cancel may come before.
        return (block.upperBound..<end).contains { token in
            file.is(token, "async") && file.isPunct(token + 1, ASCII.openParen) && file.is(token + 2, "execute")
                && file.isPunct(token + 3, ASCII.colon) && file.text(token + 4) == name
        }
    }

    /// The sequence operations whose closure is applied to each element and yields a value, a Boolean or nothing
    /// (`items.forEach { … }`, `urls.compactMap { … }`, `windows.first(where:)`, and Combine's operators of the same
    /// names): a `return` in it ends that one application, never the function the closure is written in.
    private static let elementOperations: Set<String> = [
        "forEach", "map", "compactMap", "flatMap", "filter", "reduce", "first", "last", "contains", "allSatisfy",
        "sorted", "sort", "min", "max", "firstIndex", "lastIndex", "removeAll", "drop", "prefix", "partition",
        "mapValues", "compactMapValues", "count", "tryMap", "tryFilter", "tryCompactMap",
    ]

    private func isElementClosure(_ scope: Scope) -> Bool {
        scope.name >= 0 && file.isPunct(Int(scope.name) - 1, ASCII.dot)
            && Self.elementOperations.contains(file.text(Int(scope.name)))
    }

    /// A closure applied to each element while the enclosing path waits: its `return`s leave only the closure, so
    /// none of them leaves the work unfinished, and a finishing call in it repeats one the path made before it. As
    /// for any closure, finishing the work in it (for the elements a fan-out sends) finishes the path.
    private mutating func elementClosure(open: Int, from body: Int, to close: Int, _ state: inout Fall) {
        var inner = Walker(paths: paths, file: file, fileIndex: fileIndex, aliases: aliases, depth: depth)
        inner.guarded = guarded
        _ = inner.block(body, close, entry: state, inDo: true)
        found.addFacts(of: inner.found)
        guard inner.found.mentions else { return }
        found.finishesLater = true
        finish(&state)
        // The unfinished paths of callbacks started in it are still leaks.
        found.leaks += inner.found.leaks.filter {
            Int($0.file) != fileIndex || enclosingClosure(of: Int($0.token)) != open
        }
    }

    /// The `{` of the innermost closure around token `index`, or `-1`.
    private func enclosingClosure(of index: Int) -> Int {
        var scope = Int(file.scopeOf[index])
        while scope > 0 {
            if file.scopes[scope].kind == .closure { return Int(file.scopes[scope].open) }
            scope = Int(file.scopes[scope].parent)
        }
        return -1
    }

    /// For a closure given to a project function whose result is a function and is bound to a local (`let once =
    /// Self.makeOnce { … }`), the local's name token.
    private func wrappedBy(_ scope: Scope) -> Int? {
        guard scope.name >= 0 else { return nil }
        let name = Int(scope.name)
        var start = name
        while file.isPunct(start - 1, ASCII.dot), file.isIdentifier(start - 2) { start -= 2 }
        guard let declared = file.declaredName(assignedBy: start - 1) else { return nil }
        let labels = file.isPunct(name + 1, ASCII.openParen) ? file.labels(ofCallAt: name + 1) : []
        guard let callee = paths.project.callee(file: fileIndex, token: name, name: file.text(name), labels: labels),
            returnsFunction(callee)
        else { return nil }
        return declared
    }

    /// Whether the project function `callee` is declared to return a function (`-> (Bool) -> Void`).
    private func returnsFunction(_ callee: CallableID) -> Bool {
        let summary = paths.project.summary(Int(callee.file))
        let info = summary.callables[Int(callee.index)]
        guard info.kind == .function, info.open > 0 else { return false }
        let calleeFile = paths.project.file(Int(callee.file))
        let name = Int(calleeFile.scopes[Int(info.scope)].name)
        guard name >= 0 else { return false }
        var index = name + 1
        if calleeFile.isPunct(index, ASCII.less) {
            while index < Int(info.open), !calleeFile.isPunct(index, ASCII.greater) { index += 1 }
            index += 1
        }
        guard calleeFile.isPunct(index, ASCII.openParen), Int(calleeFile.matching[index]) > index else { return false }
        var arrows = 0
        index = Int(calleeFile.matching[index]) + 1
        while index < Int(info.open) {
            if calleeFile.isPunct(index, ASCII.minus), calleeFile.isPunct(index + 1, ASCII.greater) { arrows += 1 }
            if calleeFile.word(index) == .where { break }
            index += 1
        }
        return arrows >= 2
    }

    /// The token ranges of the `case .next` clauses in `start..<end`: each from its `case` to the next `case` or
    /// `default` of the same `switch`, or to the `switch`'s end.
    private func elementCases(from start: Int, to end: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for index in start..<end
        where file.word(index) == .case && file.isPunct(index + 1, ASCII.dot) && file.is(index + 2, "next") {
            let level = file.scopeOf[index]
            let limit = min(Int(file.scopes[Int(level)].close), end)
            var next = index + 3
            while next < limit, file.scopeOf[next] != level || (file.word(next) != .case && file.word(next) != .default)
            {
                next += 1
            }
            ranges.append(index..<next)
        }
        return ranges
    }

    /// Whether the closure is given to a call that runs it again and again (`Timer.scheduledTimer(withTimeInterval:
    /// repeats: true) { … }`): a run that leaves without finishing the work leaves it to a later run.
    private func isRepeating(_ scope: Scope) -> Bool {
        guard scope.name >= 0, file.isPunct(Int(scope.name) + 1, ASCII.openParen) else { return false }
        return file.arguments(ofCallAt: Int(scope.name) + 1).contains {
            $0.label >= 0 && file.is(Int($0.label), "repeats") && file.word($0.start) == .true
        }
    }

    /// Whether the closure in `start..<end` is one of several callbacks that count down to the end: it steps a
    /// counter kept outside it (`finished += 1`) and finishes the work only under a condition on that counter
    /// (`if finished == total { end }`, directly or through a `let` bound from it). The last callback to run
    /// finishes; the paths of the others owe nothing.
    private func isCountdown(from start: Int, to end: Int) -> Bool {
        var counters: Set<String> = []
        for index in start..<end where file.isIdentifier(index) {
            let stepped =
                (file.isPunct(index + 1, ASCII.plus) || file.isPunct(index + 1, ASCII.minus))
                && file.isPunct(index + 2, ASCII.equals)
            guard stepped, !file.isPunct(index - 1, ASCII.dot) else { continue }
            let name = file.text(index)
            // Declared inside the closure, it counts nothing across callbacks.
            let local = (start..<index).contains {
                (file.word($0) == .let || file.word($0) == .var) && file.isIdentifier($0 + 1)
                    && file.text($0 + 1) == name
            }
            if !local { counters.insert(name) }
        }
        guard !counters.isEmpty else { return false }
        var derived = counters
        for index in start..<end where file.word(index) == .let && file.isIdentifier(index + 1) {
            let statementEnd = file.expressionEnd(from: index + 2, limit: end)
            if (index + 2..<statementEnd).contains(where: { file.isIdentifier($0) && counters.contains(file.text($0)) })
            {
                derived.insert(file.text(index + 1))
            }
        }
        var finishesUnderCount = false
        for index in start..<end where file.word(index) == .if || file.word(index) == .guard {
            guard let open = bodyOpen(from: index + 1, limit: end) else { continue }
            let condition = (index + 1)..<open
            guard condition.contains(where: { file.isIdentifier($0) && derived.contains(file.text($0)) }) else {
                continue
            }
            let close = Int(file.matching[open])
            guard close > open else { continue }
            for token in (open + 1)..<close where file.isIdentifier(token) && file.isPunct(token + 1, ASCII.openParen) {
                let arguments = file.arguments(ofCallAt: token + 1)
                if paths.isFinishingCall(name: file.text(token), arguments: arguments, in: file, aliases: aliases) {
                    finishesUnderCount = true
                }
            }
        }
        return finishesUnderCount
    }

    /// For the completion closure of `sink(receiveCompletion:receiveValue:)` (or `.sink { completion in … }
    /// receiveValue: { … }`, or `.sink(receiveCompletion: { … }) { value in … }`), whether the value closure finishes
    /// the work on every path.
    private func valueClosureFinishes(after scope: Scope, close: Int) -> Bool {
        guard scope.name >= 0, file.is(Int(scope.name), "sink"),
            scope.label < 0 || file.is(Int(scope.label), "receiveCompletion"),
            !mayFinishWithoutValue(sink: Int(scope.name))
        else { return false }
        var label = close + 1
        if file.isPunct(label, ASCII.comma) { label += 1 }
        var open = label + 2
        if file.isPunct(close + 1, ASCII.closeParen), file.isPunct(close + 2, ASCII.openBrace) {
            // `.sink(receiveCompletion: { … }) { value in … }`: the value closure trails the call.
            open = close + 2
        } else {
            guard file.is(label, "receiveValue"), file.isPunct(label + 1, ASCII.colon),
                file.isPunct(open, ASCII.openBrace)
            else { return false }
        }
        let valueClose = Int(file.matching[open])
        guard valueClose > open else { return false }
        let body = CompletionPaths.closureParameters(file, open: open).bodyStart
        var value = Walker(paths: paths, file: file, fileIndex: fileIndex, aliases: aliases, depth: depth)
        let fall = value.block(body, valueClose, entry: .open(site(open)), inDo: false)
        if case .open = fall { return false }
        return value.found.mentions && value.found.leaks.isEmpty && value.found.thrown.isEmpty
    }

    /// Publishers and operators after which a stream may finish without delivering a value: `Empty` finishes at
    /// once, the others drop values.
    private static let valueDroppers: Set<String> = [
        "Empty", "filter", "tryFilter", "compactMap", "tryCompactMap", "ignoreOutput", "dropFirst", "drop",
    ]

    /// Whether the publisher chain `sink` at `index` is called on may finish without a value: it has `Empty`
    /// (`.catch { _ in Empty() }`, a zipped `Empty`) or an operator that drops values (`filter`, `compactMap` …),
    /// so the completion closure may run with the value closure never having run.
    private func mayFinishWithoutValue(sink index: Int) -> Bool {
        var start = index - 1
        while start > 0, index - start < 600 {
            if file.isPunct(start, ASCII.closeParen) || file.isPunct(start, ASCII.closeBracket)
                || file.isPunct(start, ASCII.closeBrace)
            {
                let matching = Int(file.matching[start])
                guard matching < start else { return false }
                start = matching - 1
                continue
            }
            if file.startsStatement(start) { break }
            start -= 1
        }
        return (start..<index).contains { file.isIdentifier($0) && Self.valueDroppers.contains(file.text($0)) }
    }

    /// For a closure passed to a project function, where that function leaves without calling it.
    /// Other closures given to the same call that finish the work too (`callback: { completion(.newData) },
    /// errorCallback: { completion(.failed) }`) count as the same work: a path calling either finishes it.
    private func continuationSkips(_ scope: Scope) -> [Site] {
        guard let (callee, parameter) = continuationTarget(scope) else { return [] }
        return paths.skipsCallback(callee, parameters: [parameter] + siblingContinuations(of: scope, callee: callee))
    }

    /// The parameters of `callee` given, at the call `scope`'s closure is passed to, another closure literal that
    /// calls one of the names for the work.
    private func siblingContinuations(of scope: Scope, callee: CallableID) -> [Int] {
        let name = Int(scope.name)
        guard file.isPunct(name + 1, ASCII.openParen) else { return [] }
        let arguments = file.arguments(ofCallAt: name + 1)
        let labels = arguments.map { $0.label >= 0 ? file.text($0.label) : "_" }
        guard let positions = ProjectIndex.parameterPositions(of: labels, in: paths.project.index.callable(callee))
        else { return [] }
        var siblings: [Int] = []
        for (offset, argument) in arguments.enumerated()
        where offset < positions.count && argument.start != Int(scope.open)
            && file.isPunct(argument.start, ASCII.openBrace)
        {
            let close = Int(file.matching[argument.start])
            let callsWork = (argument.start..<max(close, argument.start)).contains {
                file.isIdentifier($0) && aliases.contains(file.text($0)) && !file.isPunct($0 - 1, ASCII.dot)
                    && (file.isPunct($0 + 1, ASCII.openParen)
                        || file.isPunct($0 + 1, ASCII.question) && file.isPunct($0 + 2, ASCII.openParen))
            }
            if callsWork { siblings.append(positions[offset]) }
        }
        return siblings
    }

    /// For a closure passed to a project function (`Feed.reload { task.setTaskCompleted(…) }`), the call's site
    /// when that function may return without calling the closure.
    private func continuationThatMayNotRun(_ scope: Scope) -> Site? {
        guard let (callee, parameter) = continuationTarget(scope) else { return nil }
        return paths.callsBack(callee, parameter: parameter) ? nil : site(Int(scope.name))
    }

    /// The project function a closure is passed to, and the parameter it is passed as.
    private func continuationTarget(_ scope: Scope) -> (CallableID, Int)? {
        let nameToken = Int(scope.name)
        guard nameToken >= 0, file.isIdentifier(nameToken) else { return nil }
        let labels = file.isPunct(nameToken + 1, ASCII.openParen) ? file.labels(ofCallAt: nameToken + 1) : []
        let project = paths.project
        guard
            let callee = project.callee(file: fileIndex, token: nameToken, name: file.text(nameToken), labels: labels)
        else { return nil }
        let info = project.index.callable(callee)
        let parameter: Int
        if scope.label >= 0 {
            guard let position = info.labels.firstIndex(of: file.text(Int(scope.label))) else { return nil }
            parameter = position
        } else {
            guard !info.parameters.isEmpty else { return nil }
            parameter = info.parameters.count - 1
        }
        return (callee, parameter)
    }

    // MARK: Statements

    /// Which branch of a condition owes nothing: `then` the one taken when it holds, `otherwise` the other.
    private struct Exemption {
        var then = false
        var otherwise = false
        /// The condition tests a "finished once" flag: a finishing call under it is guarded, never a repeat.
        var flag = false
        /// The exempt branch is never taken at all: no path enters it, so nothing in it is a repeat either.
        var never = false

        /// How a path enters the exempt branch.
        var exemptEntry: Fall { never ? .none : .completed }
    }

    /// For a CallKit report, a branch taken only for a push that is not VoIP (`type == .voIP` false) owes nothing.
    private func exemption(conditionFrom start: Int, to end: Int) -> Exemption {
        if let value = constantCondition(start, end) ?? alwaysHolds(start, end) {
            // A branch the condition can never take is no path.
            return Exemption(then: !value, otherwise: value, never: true)
        }
        if let testAndSet = testAndSetGuard(start, end) { return testAndSet }

        if paths.obligation != .incomingCallReported, let observed = observedFlagExemption(start, end) {
            return observed
        }
        guard paths.obligation == .incomingCallReported else { return completedFlagExemption(start, end) }
        var mentionsVoIP = false
        var negated = false
        var clauses = 1
        var depth = 0
        var readsPayload = false
        for index in start..<end {
            if file.is(index, "voIP") { mentionsVoIP = true }
            if file.isIdentifier(index), !file.isPunct(index - 1, ASCII.dot), aliases.contains(file.text(index)) {
                readsPayload = true
            }
            if file.isPunct(index, ASCII.bang), file.isPunct(index + 1, ASCII.equals) { negated = true }
            if file.isPunct(index, ASCII.openParen) || file.isPunct(index, ASCII.openBracket) { depth += 1 }
            if file.isPunct(index, ASCII.closeParen) || file.isPunct(index, ASCII.closeBracket) { depth -= 1 }
            // Another clause that reads the payload (`guard type == .voIP, let id = payload… else`, `&&`, `||`): the
            // branch is also taken for a VoIP push whose payload fails it.
            if depth == 0,
                file.isPunct(index, ASCII.comma)
                    || (file.isPunct(index, ASCII.ampersand) && file.isPunct(index + 1, ASCII.ampersand))
                    || (file.isPunct(index, ASCII.pipe) && file.isPunct(index + 1, ASCII.pipe))
            {
                clauses += 1
            }
        }
        guard mentionsVoIP, clauses == 1 || !readsPayload else { return Exemption() }
        return negated ? Exemption(then: true, otherwise: false) : Exemption(then: false, otherwise: true)
    }

    /// `true` for a condition that cannot fail where these APIs run: `#available(iOS 13, *)` or older (the
    /// background-task and CallKit rules apply from iOS 13 on), or binding `URL(string:)` of a literal address
    /// (`guard let url = URL(string: "https://example.com/feed") else { return }`). `nil` for anything else.
    private func alwaysHolds(_ start: Int, _ end: Int) -> Bool? {
        var cursor = start
        if file.isPunct(cursor, ASCII.hash) { cursor += 1 }
        if file.is(cursor, "available") || file.is(cursor, "#available"), file.isPunct(cursor + 1, ASCII.openParen),
            Int(file.matching[cursor + 1]) == end - 1, file.is(cursor + 2, "iOS")
        {
            let version = file.text(cursor + 3)
            guard let major = Int(version.prefix { $0 != "." }) else { return nil }
            return major <= 13 ? true : nil
        }
        // `let dictionary = payload.dictionaryPayload as? [String: Any]` (or a cast of the payload's dictionary handed
        // on), alone in the condition: a push's payload is decoded from JSON, whose keys are strings.
        if file.word(start) == .let || file.word(start) == .var, file.isIdentifier(start + 1),
            file.isPunct(start + 2, ASCII.equals), file.isIdentifier(start + 3), aliases.contains(file.text(start + 3))
        {
            var cast = start + 4
            if file.isPunct(cast, ASCII.dot), file.is(cast + 1, "dictionaryPayload") { cast += 2 }
            if file.word(cast) == .as, file.isPunct(cast + 1, ASCII.question),
                file.isPunct(cast + 2, ASCII.openBracket),
                file.is(cast + 3, "String"), file.isPunct(cast + 4, ASCII.colon),
                file.is(cast + 5, "Any") || file.is(cast + 5, "AnyObject"), file.isPunct(cast + 6, ASCII.closeBracket),
                cast + 7 == end
            {
                return true
            }
        }
        // `let url = URL(string: "…://…")`, alone in the condition.
        guard file.word(start) == .let, file.isIdentifier(start + 1), file.isPunct(start + 2, ASCII.equals),
            file.is(start + 3, "URL"), file.isPunct(start + 4, ASCII.openParen), file.is(start + 5, "string"),
            file.isPunct(start + 6, ASCII.colon), let literal = file.stringValue(start + 7),
            file.isPunct(start + 8, ASCII.closeParen), start + 9 == end,
            literal.contains("://"), !literal.contains(" ")
        else { return nil }
        return true
    }

    /// The value of a condition that is only a local Boolean (`expired`, `!expired`) set once where it is declared
    /// (`var expired = false`) and never again in its function (an assignment left in a comment is none): it is
    /// constant. `nil` for anything else.
    private func constantCondition(_ start: Int, _ end: Int) -> Bool? {
        var cursor = start
        var negated = false
        if file.isPunct(cursor, ASCII.bang) {
            negated = true
            cursor += 1
        }
        guard cursor + 1 == end, file.isIdentifier(cursor), file.word(cursor) == .none else { return nil }
        let name = file.text(cursor)
        var scope = Int(file.scopeOf[cursor])
        while scope > 0, !file.scopes[scope].isCallable { scope = Int(file.scopes[scope].parent) }
        guard scope > 0 else { return nil }
        let open = Int(file.scopes[scope].open)
        let close = min(Int(file.scopes[scope].close), file.count)
        var value: Bool?
        for index in open..<close where file.isIdentifier(index) && file.text(index) == name {
            if file.isPunct(index - 1, ASCII.dot) { continue }
            let declared = file.word(index - 1) == .var || file.word(index - 1) == .let
            if declared {
                guard value == nil, file.isPunct(index + 1, ASCII.equals),
                    file.word(index + 2) == .true || file.word(index + 2) == .false,
                    index + 3 >= close || file.startsStatement(index + 3) || file.isPunct(index + 3, ASCII.semicolon)
                else { return nil }
                value = file.word(index + 2) == .true
                continue
            }
            // Assigned, toggled, or lent out (`&expired`) somewhere: not a constant.
            if file.isPunct(index + 1, ASCII.equals), !file.isPunct(index + 2, ASCII.equals) { return nil }
            if file.isPunct(index + 1, ASCII.dot) || file.isPunct(index - 1, ASCII.ampersand) { return nil }
        }
        guard let value = value ?? buildConstant(named: name) else { return nil }
        return negated ? !value : value
    }

    /// The value in an iOS device build of a computed property of this file that only returns a literal in each
    /// branch of an `#if` (`var isSimulator: Bool { #if targetEnvironment(simulator) return true #else return false
    /// #endif }`); `nil` when the branch taken is not known.
    private func buildConstant(named name: String) -> Bool? {
        for index in 0..<max(file.count - 5, 0) where file.word(index) == .var && file.text(index + 1) == name {
            guard file.isPunct(index + 2, ASCII.colon), file.is(index + 3, "Bool"),
                file.isPunct(index + 4, ASCII.openBrace)
            else { continue }
            var cursor = index + 5
            var taken: Bool?
            while cursor < file.count, file.tokens[cursor].kind == .directive {
                guard file.word(cursor) == .if || file.word(cursor) == .else else {
                    cursor += 1
                    break
                }
                guard file.word(cursor + 1) == .return,
                    file.word(cursor + 2) == .true || file.word(cursor + 2) == .false,
                    let holds = file.branchCondition(at: cursor)
                else { return nil }
                if holds, taken == nil { taken = file.word(cursor + 2) == .true }
                cursor += 3
            }
            return file.isPunct(cursor, ASCII.closeBrace) ? taken : nil
        }
        return nil
    }

    /// Words that name a "finished once" flag (`isCompleted`, `didFinish`, `done`, `hasCalledCompletion`).
    private static let flagWords = ["complet", "finish", "done", "handled", "ended", "called"]

    /// Whether one of the words of a name (`hasCalledCompletion`: has, called, completion; `isURLDone`: is, url, done;
    /// `is_done`) begins with a flag word: `suspended` or `appended` name no finished work.
    private static func namesFinishedFlag(_ name: String) -> Bool {
        let characters = Array(name)
        var words: [String] = []
        var current = ""
        for (offset, character) in characters.enumerated() {
            let previous = offset > 0 ? characters[offset - 1] : "_"
            let next = offset + 1 < characters.count ? characters[offset + 1] : "_"
            let startsWord =
                character.isUppercase && (previous.isLowercase || previous.isNumber || next.isLowercase)
            if character == "_" || startsWord, !current.isEmpty {
                words.append(current.lowercased())
                current = ""
            }
            if character != "_" { current.append(character) }
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words.contains { word in flagWords.contains { word.hasPrefix($0) } }
    }

    /// A "complete once" guard: a condition on a flag that says the work was already finished. The branch taken
    /// when the flag is set owes nothing (`guard !completed else { return }`, `if done { return }`).
    private func completedFlagExemption(_ start: Int, _ end: Int) -> Exemption {
        if paths.obligation == .backgroundTaskEnded,
            let exemption = invalidIdentifierExemption(start, end) ?? unboundIdentifierExemption(start, end)
        {
            return exemption
        }
        // `if let handler = completion { handler(.newData) }` in a function given an optional handler: the branch
        // taken when it is `nil` has nothing to call.
        if paths.obligation == .completionHandlerCalled, let exemption = unboundIdentifierExemption(start, end) {
            return exemption
        }
        var mentionsFlag = false
        var negated = false
        for index in start..<end {
            // A prefix `!` negates; a postfix one (`value!`) unwraps.
            if file.isPunct(index, ASCII.bang), !file.isPunct(index + 1, ASCII.equals),
                index == start
                    || !(file.isIdentifier(index - 1) || file.isPunct(index - 1, ASCII.closeParen)
                        || file.isPunct(index - 1, ASCII.closeBracket))
            {
                negated = true
            }
            if file.word(index) == .false { negated = true }
            guard file.isIdentifier(index), !mentionsFlag else { continue }
            // A call's result (`didFinish()`) is not a flag the handler keeps.
            if file.isPunct(index + 1, ASCII.openParen) { continue }
            mentionsFlag = Self.namesFinishedFlag(file.text(index))
        }
        guard mentionsFlag else { return Exemption() }
        return negated
            ? Exemption(then: false, otherwise: true, flag: true) : Exemption(then: true, otherwise: false, flag: true)
    }

    /// A guard that lets one caller through to the work, told by what the code does: a flag set at once after it
    /// (`flagOnceGuard`), or a stored optional taken and cleared at once (`takeOnceGuard`). The branch it keeps the
    /// others on is taken only when another has the work: it owes nothing.
    private func onceGuard(_ start: Int, _ end: Int, _ close: Int) -> Exemption? {
        flagOnceGuard(start, end, close) ?? takeOnceGuard(start, end, close)
    }

    /// A test-and-set under a lock, told by what the code does: a condition that is one call whose closure sets a
    /// value to `true` and returns (`if done.withLock({ let first = !$0; $0 = true; return first }) { complete }`),
    /// or a `let` bound from one (`let isFirst = gate.withLock { … }` and then `if isFirst`). One caller gets the
    /// answer that lets it through, whichever way the closure words it; the branch the others take is taken when
    /// another has the work, and owes nothing: a `guard`'s `else`, or the branch of an `if` that does not finish it.
    private func testAndSetGuard(_ start: Int, _ end: Int) -> Exemption? {
        guard paths.obligation == .backgroundTaskEnded || paths.obligation == .taskCompleted else { return nil }
        var from = file.isPunct(start, ASCII.bang) ? start + 1 : start
        guard file.expressionEnd(from: from, limit: end) == end else { return nil }
        var to = end
        if file.isIdentifier(from), from + 1 == end, file.word(from) == .none,
            let equals = file.localBindings(named: file.text(from), before: from).last
        {
            from = equals + 1
            to = file.expressionEnd(from: from, limit: start)
        }
        guard file.isIdentifier(from), file.word(from) == .none || file.word(from) == .`self` else { return nil }
        // The closure the call is given, or else the body of the project method it calls (`state.claimCompletion()`).
        var body = (file: file, range: from..<to)
        if let open = (from..<to).first(where: { file.isPunct($0, ASCII.openBrace) }) {
            body.range = open..<to
        } else {
            var name = from
            while file.isPunct(name + 1, ASCII.dot), file.isIdentifier(name + 2) { name += 2 }
            guard file.isPunct(name + 1, ASCII.openParen), Int(file.matching[name + 1]) + 1 == to,
                let callee = paths.project.callee(
                    file: fileIndex, token: name, name: file.text(name), labels: file.labels(ofCallAt: name + 1))
            else { return nil }
            let calleeFile = paths.project.file(Int(callee.file))
            let scope = calleeFile.scopes[Int(paths.project.index.callable(callee).scope)]
            guard scope.open >= 0, scope.close > scope.open else { return nil }
            body = (calleeFile, Int(scope.open)..<Int(scope.close))
        }
        var setsTrue = false
        var returns = false
        let source = body.file
        for index in body.range {
            if source.isPunct(index, ASCII.equals), source.word(index + 1) == .true,
                !source.isPunct(index - 1, ASCII.equals), !source.isPunct(index - 1, ASCII.bang)
            {
                setsTrue = true
            }
            if source.word(index) == .return { returns = true }
        }
        guard setsTrue, returns else { return nil }
        if file.word(end) == .else { return Exemption(then: false, otherwise: true, flag: true) }
        let close = Int(file.matching[end])
        let finishesInside =
            close > end
            && (end + 1..<close).contains {
                file.isIdentifier($0) && file.isPunct($0 + 1, ASCII.openParen)
                    && paths.isFinishingCall(
                        name: file.text($0), arguments: file.arguments(ofCallAt: $0 + 1), in: file, aliases: aliases)
            }
        return finishesInside
            ? Exemption(then: false, otherwise: true, flag: true) : Exemption(then: true, otherwise: false, flag: true)
    }

    /// A "run once" guard around ending a background task or completing a `BGTask`, whatever the flag is called: a
    /// condition that is only a Boolean stored name (`self.isEnding`, or `!fired` in a `guard`), whose block (ending
    /// at `close`) only returns, followed at once by setting that name to `true` (`if self.isEnding { return };
    /// self.isEnding = true`). The branch that returns is taken when another call is already finishing the task.
    private func flagOnceGuard(_ start: Int, _ end: Int, _ close: Int) -> Exemption? {
        // Only for a task that whoever passes the guard finishes for all (a background task held in a variable, a
        // `BGTask`); a caller's own completion handler dropped by such a guard is still owed.
        guard paths.obligation == .backgroundTaskEnded || paths.obligation == .taskCompleted else { return nil }
        var cursor = start
        let negated = file.isPunct(cursor, ASCII.bang)
        // `if flag { return }` and `guard !flag else { return }` return when the flag is set.
        guard negated == (file.word(end) == .else) else { return nil }
        if negated { cursor += 1 }
        if file.word(cursor) == .`self`, file.isPunct(cursor + 1, ASCII.dot) { cursor += 2 }
        guard cursor + 1 == end, file.isIdentifier(cursor), file.word(cursor) == .none else { return nil }
        let name = file.text(cursor)
        let open = end + (file.word(end) == .else ? 1 : 0)
        guard file.isPunct(open, ASCII.openBrace), file.word(open + 1) == .return, open + 2 == close else {
            return nil
        }
        var next = close + 1
        if file.word(next) == .`self`, file.isPunct(next + 1, ASCII.dot) { next += 2 }
        guard file.isIdentifier(next), file.text(next) == name, file.isPunct(next + 1, ASCII.equals),
            file.word(next + 2) == .true
        else { return nil }
        return file.word(end) == .else
            ? Exemption(then: false, otherwise: true, flag: true) : Exemption(then: true, otherwise: false, flag: true)
    }

    /// A branch skipped while a stored Boolean of this file is set (`if !isProcessing { complete() }`, `guard
    /// !isBusy else { return }`), where that Boolean's `didSet` observer calls a project function that finishes the
    /// work (`didSet { if oldValue && !isProcessing { complete() } }`): the work is left to the observer, which
    /// finishes it when the flag is cleared, so the branch taken while it is set owes nothing.
    private func observedFlagExemption(_ start: Int, _ end: Int) -> Exemption? {
        var cursor = start
        let negated = file.isPunct(cursor, ASCII.bang)
        if negated { cursor += 1 }
        // In a `guard`, only the `else` taken while the flag is set (`guard !flag else { … }`).
        if file.word(end) == .else, !negated { return nil }
        if file.word(cursor) == .`self`, file.isPunct(cursor + 1, ASCII.dot) { cursor += 2 }
        guard cursor + 1 == end, file.isIdentifier(cursor), file.word(cursor) == .none else { return nil }
        let name = file.text(cursor)
        for block in file.observerBlocks(ofProperty: name) {
            for observer in block where file.word(observer) == .didSet && file.isPunct(observer + 1, ASCII.openBrace) {
                let end = Int(file.matching[observer + 1])
                for token in (observer + 2)..<max(end, observer + 2)
                where file.isIdentifier(token) && file.word(token) == .none && file.isPunct(token + 1, ASCII.openParen)
                {
                    guard
                        let callee = paths.project.callee(
                            file: fileIndex, token: token, name: file.text(token),
                            labels: file.labels(ofCallAt: token + 1)),
                        paths.mayFinish(callee)
                    else { continue }
                    return negated
                        ? Exemption(then: false, otherwise: true, flag: true)
                        : Exemption(then: true, otherwise: false, flag: true)
                }
            }
        }
        return nil
    }

    /// A "take once" guard, told by what the code does: binding a stored optional alone (`guard let task =
    /// refreshTask else { return }`, `if let handler = self.pending {`) and clearing it at once (`refreshTask = nil`,
    /// the guard's next statement or the first of the `if`'s block). Whoever passes takes the work and leaves nothing
    /// for the next, so the branch taken when it is `nil` is taken only once another has taken it: it owes nothing.
    private func takeOnceGuard(_ start: Int, _ end: Int, _ close: Int) -> Exemption? {
        guard paths.obligation != .incomingCallReported, file.word(start) == .let || file.word(start) == .var,
            file.isIdentifier(start + 1), file.isPunct(start + 2, ASCII.equals)
        else { return nil }
        var value = start + 3
        if file.word(value) == .`self`, file.isPunct(value + 1, ASCII.dot) { value += 2 }
        guard file.isIdentifier(value), file.word(value) == .none, value + 1 == end else { return nil }
        let name = file.text(value)
        var next = file.word(end) == .else ? close + 1 : end + 1
        if file.word(next) == .`self`, file.isPunct(next + 1, ASCII.dot) { next += 2 }
        guard file.isIdentifier(next), file.text(next) == name, file.isPunct(next + 1, ASCII.equals),
            file.word(next + 2) == .nil
        else { return nil }
        return Exemption(then: false, otherwise: true, flag: true)
    }

    /// `if task != .invalid { end }`, `guard task != .invalid else { return }`: when the identifier is already
    /// `.invalid` the task was ended (or never began), so that branch owes nothing.
    private func invalidIdentifierExemption(_ start: Int, _ end: Int) -> Exemption? {
        var comparesAlias = false
        var invalid = false
        var notEqual = false
        for index in start..<end {
            if file.isIdentifier(index), aliases.contains(file.text(index)) { comparesAlias = true }
            if file.is(index, "invalid") || file.is(index, "UIBackgroundTaskInvalid") { invalid = true }
            if file.isPunct(index, ASCII.bang), file.isPunct(index + 1, ASCII.equals) { notEqual = true }
        }
        guard comparesAlias, invalid else { return nil }
        return notEqual
            ? Exemption(then: false, otherwise: true, flag: true) : Exemption(then: true, otherwise: false, flag: true)
    }

    /// `if let id = task { end(id) }`, `guard let id = task else { return }`: the identifier variable holds what
    /// `beginBackgroundTask` returned, so it is `nil` only once whoever ended the task has cleared it; the branch
    /// taken then owes nothing, as for `.invalid`.
    private func unboundIdentifierExemption(_ start: Int, _ end: Int) -> Exemption? {
        for index in start..<end where file.word(index) == .let || file.word(index) == .var {
            guard file.isIdentifier(index + 1) else { continue }
            var value = index + 1
            if file.isPunct(index + 2, ASCII.equals) {
                value = index + 3
                if file.word(value) == .`self`, file.isPunct(value + 1, ASCII.dot) { value += 2 }
            }
            guard file.isIdentifier(value), aliases.contains(file.text(value)) else { continue }
            let after = value + 1
            guard after >= end || file.isPunct(after, ASCII.comma) || file.word(after) == .else else { continue }
            return Exemption(then: false, otherwise: true, flag: true)
        }
        return nil
    }

    private mutating func ifStatement(at start: Int, _ limit: Int, _ state: inout Fall, inDo: Bool) -> Int {
        let entry = state
        var results: [Fall] = []
        var cursor = start
        var branchEntry = entry
        var exhaustive = false
        var lastExemption = Exemption()
        var lastHead = start
        /// Where each branch in `results` begins: its `if`, or the `else` of the last one.
        var heads: [Int] = []
        while true {
            guard let open = bodyOpen(from: cursor + 1, limit: limit) else { return limit }
            let afterCondition = block(cursor + 1, open, entry: branchEntry, inDo: inDo)
            var exemption = exemption(conditionFrom: cursor + 1, to: open)
            if !exemption.flag, cursor == start, let guardEx = onceGuard(cursor + 1, open, Int(file.matching[open])) {
                exemption = guardEx
            }
            lastExemption = exemption
            lastHead = cursor
            let close = Int(file.matching[open])
            if exemption.flag { guarded += 1 }
            results.append(
                block(open + 1, close, entry: exemption.then ? exemption.exemptEntry : afterCondition, inDo: inDo))
            heads.append(cursor)
            if exemption.flag { guarded -= 1 }
            cursor = close + 1
            branchEntry = exemption.otherwise ? exemption.exemptEntry : afterCondition
            guard file.word(cursor) == .else else { break }
            if file.word(cursor + 1) == .if {
                cursor += 1
                continue
            }
            guard file.isPunct(cursor + 1, ASCII.openBrace) else { break }
            let elseClose = Int(file.matching[cursor + 1])
            guard elseClose > cursor + 1 else { return limit }
            if lastExemption.flag { guarded += 1 }
            results.append(block(cursor + 2, elseClose, entry: branchEntry, inDo: inDo))
            heads.append(cursor)
            if lastExemption.flag { guarded -= 1 }
            cursor = elseClose + 1
            exhaustive = true
            break
        }
        if !exhaustive {
            if lastExemption.otherwise {
                results.append(lastExemption.exemptEntry)
            } else if case .open(let origin) = branchEntry, found.returnedUnfinished[origin] != nil {
                // Still the path a called function left unfinished: its returns stay where it is reported.
                results.append(branchEntry)
            } else if isOpen(branchEntry) {
                results.append(.open(site(lastHead)))
            } else {
                results.append(branchEntry)
            }
        }
        // A branch that leaves the work as it found it, unfinished, while another branch finishes it or leaves: the
        // path that skips the work is that branch's, so it is reported where the branch begins. A branch whose own
        // nested condition already skipped the work where another of its paths made it (`if let id = … { if start
        // { report } }`, no `else` to either) made the work on some path too, so the outer skip is reported as well.
        if case .open(let origin) = entry, found.returnedUnfinished[origin] == nil,
            paths.obligation != .backgroundTaskEnded,
            results.contains(where: { !isOpen($0) || leftOpenByCall($0) })
                || results.prefix(heads.count).contains(where: { skippedInside($0, other: origin) })
        {
            for (position, result) in results.enumerated()
            where position < heads.count && isOpen(result, from: origin) {
                // The condition's first token for a branch taken when it holds, the `else` for the last one.
                let head = heads[position]
                results[position] = .open(site(file.word(head) == .if ? head + 1 : head))
            }
            if results.contains(where: isOpen) {
                state = mergeSkippingBranches(results)
                return cursor
            }
        }
        state = merge(entry, results)
        return cursor
    }

    /// Open from a site of its own, found inside the branch where another of its paths finished the work, rather
    /// than from `origin` or from a called function's returns.
    private func skippedInside(_ state: Fall, other origin: Site) -> Bool {
        guard case .open(let site) = state else { return false }
        return site != origin && found.returnedUnfinished[site] == nil
    }

    /// Open only where a function it called returned without the work, which that function made on its other paths.
    private func leftOpenByCall(_ state: Fall) -> Bool {
        if case .open(let site) = state { return found.returnedUnfinished[site] != nil }
        return false
    }

    private func isOpen(_ state: Fall, from origin: Site) -> Bool {
        if case .open(let site) = state { return site == origin }
        return false
    }

    private mutating func merge(_ entry: Fall, _ results: [Fall]) -> Fall {
        if case .none = entry { return .none }
        if case .completed = entry { return .completed }
        var sawCompleted = false
        var open: [Site] = []
        for result in results {
            switch result {
            case .open(let site): open.append(site)
            case .completed: sawCompleted = true
            case .none: break
            }
        }
        guard let first = open.first else { return sawCompleted ? .completed : .none }
        // Branches left unfinished by a called function's returns and by other paths meet here: one site stands for
        // all of them (the called function's returns, if any), so none is lost if the path stays open.
        guard let standIn = open.first(where: { found.returnedUnfinished[$0] != nil }), open.count > 1 else {
            return .open(first)
        }
        for site in open where site != standIn {
            found.returnedUnfinished[standIn, default: []] += found.returnedUnfinished[site] ?? [site]
        }
        return .open(standIn)
    }

    /// Branches of one `if` that each skip the work where another finishes it: one site stands for all of them, so
    /// each is reported if the path stays open.
    private mutating func mergeSkippingBranches(_ results: [Fall]) -> Fall {
        var distinct: [Site] = []
        for case .open(let site) in results where !distinct.contains(site) { distinct.append(site) }
        guard distinct.count > 1 else { return merge(.open(distinct[0]), results) }
        let standIn = distinct.first(where: { found.returnedUnfinished[$0] != nil }) ?? distinct[0]
        var sites = found.returnedUnfinished[standIn] ?? [standIn]
        for site in distinct where site != standIn {
            for leak in found.returnedUnfinished[site] ?? [site] where !sites.contains(leak) { sites.append(leak) }
        }
        found.returnedUnfinished[standIn] = sites
        return .open(standIn)
    }

    private mutating func guardStatement(at start: Int, _ limit: Int, _ state: inout Fall, inDo: Bool) -> Int {
        var elseIndex = start + 1
        while elseIndex < limit, file.word(elseIndex) != .else {
            if file.isPunct(elseIndex, ASCII.openParen) || file.isPunct(elseIndex, ASCII.openBracket)
                || file.isPunct(elseIndex, ASCII.openBrace)
            {
                let close = Int(file.matching[elseIndex])
                guard close > elseIndex else { return limit }
                elseIndex = close
            }
            elseIndex += 1
        }
        guard elseIndex < limit, file.isPunct(elseIndex + 1, ASCII.openBrace) else { return limit }
        state = block(start + 1, elseIndex, entry: state, inDo: inDo)
        var exemption = exemption(conditionFrom: start + 1, to: elseIndex)
        let open = elseIndex + 1
        let close = Int(file.matching[open])
        guard close > open else { return limit }
        if !exemption.flag, let guardEx = onceGuard(start + 1, elseIndex, close) { exemption = guardEx }
        if exemption.flag { guarded += 1 }
        let left = block(open + 1, close, entry: exemption.otherwise ? exemption.exemptEntry : state, inDo: inDo)
        if exemption.flag { guarded -= 1 }
        // `guard let task = task as? BGAppRefreshTask else { break }` in a `switch` case: the path goes on after the
        // `switch`, leaving where the `guard` is if it stays open.
        if file.word(close - 1) == .break, let target = breakTargets.indices.last,
            breakTargets[target].body.contains(start), breakTargets[target].exits != nil
        {
            let exit = isOpen(left) ? Fall.open(site(start)) : left
            breakTargets[target].exits?.append(exit)
        }
        return close + 1
    }

    private mutating func switchStatement(at start: Int, _ limit: Int, _ state: inout Fall, inDo: Bool) -> Int {
        guard let open = bodyOpen(from: start + 1, limit: limit) else { return limit }
        let close = Int(file.matching[open])
        state = block(start + 1, open, entry: state, inDo: inDo)
        let entry = state
        var labels: [(head: Int, bodyStart: Int)] = []
        var index = open + 1
        while index < close {
            if file.matching[index] > index, !file.isPunct(index, ASCII.closeParen) {
                index = Int(file.matching[index]) + 1
                continue
            }
            let word = file.word(index)
            if word == .case || word == .default, isCaseLabel(index) {
                var colon = index + 1
                while colon < close, !file.isPunct(colon, ASCII.colon) {
                    if file.matching[colon] > colon { colon = Int(file.matching[colon]) }
                    colon += 1
                }
                labels.append((index, colon + 1))
                index = colon + 1
                continue
            }
            index += 1
        }
        // A `switch` on the push type with a `case .voIP:`: its other cases, `default` among them, run only for
        // pushes that are not VoIP, and owe CallKit nothing.
        let source = file
        let voipCase: (Int, Int) -> Bool = { head, bodyStart in (head..<bodyStart).contains { source.is($0, "voIP") } }
        let typeSwitch =
            paths.obligation == .incomingCallReported
            && labels.contains { file.word($0.head) == .case && voipCase($0.head, $0.bodyStart) }
        var results: [Fall] = []
        let finishesBefore = finishes
        breakTargets.append((open..<close, []))
        for (offset, label) in labels.enumerated() {
            let end = offset + 1 < labels.count ? labels[offset + 1].head : close
            var caseEntry: Fall = isOpen(entry) ? .open(site(label.head)) : entry
            if typeSwitch, isOpen(entry), !voipCase(label.head, label.bodyStart) { caseEntry = .completed }
            if file.word(label.head) == .default, file.is(label.head - 1, "unknown"),
                file.isPunct(label.head - 2, ASCII.at)
            {
                // `@unknown default:` runs only for a case a later SDK adds to the enum: no path here.
                caseEntry = .none
            }
            results.append(block(label.bodyStart, end, entry: caseEntry, inDo: inDo))
        }
        results += breakTargets.removeLast().exits ?? []
        if case .open(let origin) = entry, found.returnedUnfinished[origin] == nil,
            paths.obligation != .backgroundTaskEnded,
            results.contains(where: { !isOpen($0) }) || finishes > finishesBefore,
            results.contains(where: isOpen)
        {
            // Cases that each skip the work where another finishes it: each is reported where it begins, also when
            // the path then leaves by a `return`. Another path may finish it inside a case that still falls through
            // open (`case .invite: if stale { report(); return }; forward()`).
            for case .open(let site) in results where found.returnedUnfinished[site] == nil {
                found.skipsReportedInPlace.insert(site)
            }
            state = mergeSkippingBranches(results)
        } else {
            state = labels.isEmpty ? entry : merge(entry, results)
        }
        return close + 1
    }

    private func isCaseLabel(_ index: Int) -> Bool {
        let previous = file.word(index - 1)
        if previous == .if || previous == .guard || previous == .while || previous == .for { return false }
        return !file.isPunct(index - 1, ASCII.comma)
    }

    private mutating func doStatement(at start: Int, _ limit: Int, _ state: inout Fall, inDo: Bool) -> Int {
        guard file.isPunct(start + 1, ASCII.openBrace) else { return start + 1 }
        let close = Int(file.matching[start + 1])
        guard close > start + 1 else { return limit }
        let catches = file.word(close + 1) == .catch
        let entry = state
        let outerTried = triedAfterFinishing
        triedAfterFinishing = false
        let mentionedBefore = found.mentions
        found.mentions = false
        var results = [block(start + 2, close, entry: entry, inDo: inDo || catches)]
        let bodyMentions = found.mentions
        found.mentions = found.mentions || mentionedBefore
        let caughtAfterFinishing = triedAfterFinishing && catches
        triedAfterFinishing = outerTried
        var cursor = close + 1
        while file.word(cursor) == .catch {
            guard let open = bodyOpen(from: cursor + 1, limit: limit) else { return limit }
            let catchClose = Int(file.matching[open])
            // Still the path a called function left unfinished (its returns are where it is reported), or a path of
            // its own that the `catch` leaves.
            let catchEntry: Fall =
                !isOpen(entry) || leftOpenByCall(entry)
                ? entry : firstTryReports(from: start + 2, to: close) ? .completed : .open(site(cursor))
            results.append(block(open + 1, catchClose, entry: catchEntry, inDo: inDo))
            if caughtAfterFinishing, isOpen(catchEntry), paths.obligation == .taskCompleted {
                // The error may come after the task was completed: the `catch` runs again from there, and what it
                // finishes then is a repeat (its leaks are the first walk's).
                let leaks = found.leaks
                _ = block(open + 1, catchClose, entry: .completed, inDo: inDo)
                found.leaks = leaks
            }
            cursor = catchClose + 1
        }
        // The `do` body left unfinished (an `if` without `else` skipped the work) and a `catch` that leaves unfinished
        // are two places the work is skipped where the body does (or hands on) the work on another path: each is
        // reported if the path stays open. Where the body has no part in the work, the work is still ahead of both.
        var openSites: [Site] = []
        for case .open(let site) in results where !openSites.contains(site) { openSites.append(site) }
        state =
            isOpen(entry) && openSites.count > 1 && bodyMentions
            ? mergeSkippingBranches(results) : merge(entry, results)
        return cursor
    }

    /// Whether the first `try` that may throw in the `do` body in `start..<end` (its nested `if`s and loops included,
    /// not the closures it makes; `try?` and `try!` throw nothing) is a call reporting an incoming call (`try await
    /// provider.reportNewIncomingCall(with:update:)`): nothing throws before it, and an error it throws comes after
    /// the report was made (the system declined the call), so its `catch` owes no report.
    private func firstTryReports(from start: Int, to end: Int) -> Bool {
        guard paths.obligation == .incomingCallReported else { return false }
        var index = start
        while index < end {
            if file.isPunct(index, ASCII.openBrace), Int(file.matching[index]) > index,
                file.scopes[Int(file.scopeOf[index])].kind != .control
            {
                index = Int(file.matching[index]) + 1
                continue
            }
            let mayThrow =
                file.word(index) == .try && !file.isPunct(index + 1, ASCII.question)
                && !file.isPunct(index + 1, ASCII.bang)
            if mayThrow {
                let expressionEnd = file.expressionEnd(from: index + 1, limit: end)
                return (index + 1..<expressionEnd).contains { token in
                    file.isIdentifier(token) && file.isPunct(token + 1, ASCII.openParen)
                        && CompletionPaths.isReport(file.text(token))
                }
            }
            index += 1
        }
        return false
    }

    private mutating func loop(at start: Int, _ limit: Int, _ state: inout Fall, inDo: Bool) -> Int {
        guard let open = bodyOpen(from: start + 1, limit: limit) else { return limit }
        let close = Int(file.matching[open])
        state = block(start + 1, open, entry: state, inDo: inDo)
        // The body may run zero times: what it finishes does not count after the loop, its leaks do.
        breakTargets.append((open..<close, nil))
        defer { breakTargets.removeLast() }
        let once = block(open + 1, close, entry: state, inDo: inDo)
        if paths.obligation == .taskCompleted, isOpen(state), case .completed = once, !leavesLoop(open, close) {
            // It may also run twice: a second run starts where the first left the task, completed.
            _ = block(open + 1, close, entry: .completed, inDo: inDo)
        }
        return close + 1
    }

    /// Whether the loop body in `open..<close` has a `break`, `return` or `throw` of its own (not one in a closure
    /// it makes): a run that completes the task may then be its last.
    private func leavesLoop(_ open: Int, _ close: Int) -> Bool {
        (open + 1..<close).contains { index in
            let word = file.word(index)
            guard word == .break || word == .return || word == .throw else { return false }
            return enclosingClosure(of: index) <= open
        }
    }

    private mutating func repeatStatement(at start: Int, _ limit: Int, _ state: inout Fall, inDo: Bool) -> Int {
        guard file.isPunct(start + 1, ASCII.openBrace) else { return start + 1 }
        let close = Int(file.matching[start + 1])
        guard close > start + 1 else { return limit }
        breakTargets.append((start + 1..<close, nil))
        state = block(start + 2, close, entry: state, inDo: inDo)
        breakTargets.removeLast()
        var cursor = close + 1
        if file.word(cursor) == .while { cursor = file.expressionEnd(from: cursor + 1, limit: limit) }
        return cursor
    }

    private mutating func deferStatement(at start: Int, _ limit: Int, _ state: inout Fall, inDo: Bool) -> Int {
        guard file.isPunct(start + 1, ASCII.openBrace) else { return start + 1 }
        let close = Int(file.matching[start + 1])
        guard close > start + 1 else { return limit }
        // Runs at every exit after this point: finishing inside covers all of them.
        if case .completed = block(start + 2, close, entry: .open(site(start)), inDo: inDo) {
            let conditions: Set<Word> = [.if, .guard, .switch]
            if ((start + 2)..<close).contains(where: { conditions.contains(file.word($0)) }) {
                finishedByConditionalDefer = true
            }
            finish(&state)
        }
        return close + 1
    }

    // MARK: Names and calls

    /// `let name = alias` (optionally `as? Type`) makes `name` another name for the obligation; a value
    /// derived from it (`let caller = payload.dictionaryPayload["caller"]`) does not.
    private mutating func noteAlias(at index: Int) {
        guard file.isIdentifier(index + 1) else { return }
        var equals = index + 2
        if file.isPunct(equals, ASCII.colon) {
            while equals < index + 8, !file.isPunct(equals, ASCII.equals) { equals += 1 }
        }
        let value = equals + 1
        guard file.isPunct(equals, ASCII.equals), file.isIdentifier(value), aliases.contains(file.text(value)) else {
            return
        }
        if valueEnds(at: value + 1) { aliases.insert(file.text(index + 1)) }
    }

    /// Whether the value before token `index` ends there: the statement ends (a new line, `;`, `}`, `)`), a cast
    /// follows (`as? BGProcessingTask`), or another clause (`,`, the `{` or `else` of an `if let` or `guard let`).
    private func valueEnds(at index: Int) -> Bool {
        index >= file.count || file.startsStatement(index) || file.word(index) == .as || file.word(index) == .else
            || file.isPunct(index, ASCII.comma) || file.isPunct(index, ASCII.semicolon)
            || file.isPunct(index, ASCII.openBrace) || file.isPunct(index, ASCII.closeBrace)
            || file.isPunct(index, ASCII.closeParen)
    }

    /// An argument that is the obligation itself: `task`, `task as! BGAppRefreshTask`, `completionHandler`, or
    /// for a VoIP push the whole payload (`payload`, `payload.dictionaryPayload`), not a value read out of it.
    private func isAliasArgument(_ argument: Argument) -> Bool {
        if file.isPunct(argument.start, ASCII.openParen), Int(file.matching[argument.start]) == argument.end - 1 {
            // A tuple that carries it (`handler((payload, type, completion))`) passes it on.
            return file.arguments(ofCallAt: argument.start).contains(where: isAliasArgument)
        }
        guard file.isIdentifier(argument.start) else { return false }
        if argument.end - argument.start == 1, localFinishers.contains(file.text(argument.start)) { return true }
        guard aliases.contains(file.text(argument.start)) else { return false }
        if argument.end - argument.start == 1 || file.word(argument.start + 1) == .as { return true }
        // `task!`: the same value, unwrapped.
        if argument.end - argument.start == 2, file.isPunct(argument.start + 1, ASCII.bang) { return true }
        return paths.obligation == .incomingCallReported && argument.end - argument.start == 3
            && file.isPunct(argument.start + 1, ASCII.dot) && file.is(argument.start + 2, "dictionaryPayload")
    }

    private mutating func identifier(at index: Int, _ state: inout Fall, inDo: Bool) -> Int {
        // A nested function's name where it is declared (`func finish(_ ok: Bool) {`) is no call.
        if file.word(index - 1) == .func { return index + 1 }
        let name = file.text(index)
        if file.isPunct(index + 1, ASCII.equals), !file.isPunct(index + 2, ASCII.equals), name == "expirationHandler" {
            if file.isPunct(index + 2, ASCII.openBrace) {
                let close = Int(file.matching[index + 2])
                if close > index,
                    onlyLogs(from: index + 3, to: close)
                        || onlySetsUntestedFlags(from: index + 3, to: close, setAt: index)
                {
                    found.expirationHandlerOnlyLogs = found.expirationHandlerOnlyLogs ?? site(index)
                } else if close > index, paths.obligation == .taskCompleted, onlyDefers(from: index + 3, to: close) {
                    found.expirationHandlerOnlyDefers = found.expirationHandlerOnlyDefers ?? site(index)
                } else if close > index, paths.obligation == .taskCompleted,
                    cancelsIgnoredOperations(from: index + 3, to: close, setAt: index)
                {
                    found.expirationHandlerCancelsNothing = found.expirationHandlerCancelsNothing ?? site(index)
                } else {
                    found.setsExpirationHandler = true
                    // Completed only in work the handler starts for later (`Task { sleep; task.setTaskCompleted(…) }`):
                    // after it has returned, yet completed all the same, which may repeat the work's own completion.
                    let judged = close > index && paths.obligation == .taskCompleted
                    let completesNow = judged && completesTask(in: index + 2, close)
                    let completesLater = judged && !completesNow && completesLater(in: index + 2, close)
                    if completesLater {
                        found.expirationHandlerCompletesLater = found.expirationHandlerCompletesLater ?? site(index)
                    }
                    if completesNow || completesLater {
                        found.expirationCompletes = true
                        found.expirationMarks.formUnion(
                            CompletionPaths.expirationMarks(ofHandlerAt: index + 2, in: file))
                        if stopsWork(in: index + 2, close, setAt: index) { found.expirationStops = true }
                        let body = file.scopes[Int(file.scopeOf[index])]
                        if body.kind == .function || body.kind == .closure, body.close > body.open {
                            found.completionsInTasks += uncancellableCompletions(
                                from: close + 1, to: Int(body.close), closure: Int(body.open),
                                marks: found.expirationMarks)
                        }
                    }
                }
                return close > index ? close + 1 : index + 3
            }
            found.setsExpirationHandler = true
            // `task.expirationHandler = expire`, a local closure that completes the task.
            if file.isIdentifier(index + 2), aliases.contains(file.text(index + 2)), paths.obligation == .taskCompleted,
                file.startsStatement(index + 3) || file.isPunct(index + 3, ASCII.semicolon)
            {
                found.expirationCompletes = true
                return index + 3
            }
            return index + 2
        }
        var open = -1
        if file.isPunct(index + 1, ASCII.openParen), file.line(index + 1) == file.line(index) {
            open = index + 1
        } else if file.isPunct(index + 1, ASCII.question), file.isPunct(index + 2, ASCII.openParen) {
            open = index + 2
        } else if file.isPunct(index + 1, ASCII.openBrace), file.scopes[Int(file.scopeOf[index + 1])].kind == .closure {
            open = -2
        }
        if open == -1 {
            if aliases.contains(name), isStoredValue(index), let local = localAssigned(at: index) {
                // Put in a variable of the body itself (`var info = …` earlier, then `info = payload.…`): another
                // name for it in this body, not a place it is kept for later.
                aliases.insert(local)
            } else if aliases.contains(name), isStoredValue(index), isWholeValue(index) {
                // Kept for later (`self.pending = completionHandler`): whoever reads it finishes the work. A value
                // read out of it (`self.callID = dictionary["call-id"]` in an initializer given a push's payload) is
                // not the work.
                found.escaped = true
                found.finishesLater = true
                keptForLater = true
                noteOverwrite(ofPropertyAssignedAt: index - 1)
                finish(&state)
            }
            return index + 1
        }
        let arguments = open >= 0 ? file.arguments(ofCallAt: open) : []
        call(name, at: index, arguments: arguments, &state, inDo: inDo)
        return index + 1
    }

    /// Whether the code in `start..<end` only logs: it assigns nothing, and every call in it is a logger, a call
    /// whose effects reach no task (`CompletionPaths.isLogger`). Arguments of a logger are not actions.
    private func onlyLogs(from start: Int, to end: Int) -> Bool {
        var index = start
        while index < end {
            if file.isAssignment(index) {
                return false
            }
            if file.isIdentifier(index), file.word(index) == .none, file.isPunct(index + 1, ASCII.openParen) {
                guard paths.isLogger(file: fileIndex, token: index, depth: 0) else { return false }
                let close = Int(file.matching[index + 1])
                if close > index + 1 {
                    index = close + 1
                    continue
                }
            } else if file.isIdentifier(index), file.word(index) == .none, file.isPunct(index + 1, ASCII.openBrace),
                !paths.isLogger(file: fileIndex, token: index, depth: 0)
            {
                return false
            }
            index += 1
        }
        return true
    }

    /// Whether the code in `start..<end` (the expiration handler set at `assignment`) only sets variables of the body
    /// around it to a literal (`didExpire = true`) and besides only logs, while that body reads none of them but in the
    /// arguments of a `setTaskCompleted` (`task.setTaskCompleted(success: !didExpire)`): no test of the flag stops the
    /// work, which runs on, and the task is completed, if at all, only when it is done.
    private func onlySetsUntestedFlags(from start: Int, to end: Int, setAt assignment: Int) -> Bool {
        let body = file.scopes[Int(file.scopeOf[assignment])]
        guard body.open >= 0, body.close > body.open else { return false }
        var flags: Set<String> = []
        var piece = start
        var index = start
        while index < end {
            guard file.isAssignment(index) else {
                index += 1
                continue
            }
            let name = index - 1
            let value = index + 1
            guard file.isIdentifier(name), !file.isPunct(name - 1, ASCII.dot),
                file.word(value) == .true || file.word(value) == .false,
                file.startsStatement(value + 1) || file.isPunct(value + 1, ASCII.semicolon)
                    || file.isPunct(value + 1, ASCII.closeBrace),
                onlyLogs(from: piece, to: name)
            else { return false }
            flags.insert(file.text(name))
            piece = value + 1
            index = value + 1
        }
        guard !flags.isEmpty, onlyLogs(from: piece, to: end) else { return false }
        // Each flag a `var` of the body itself, read nowhere else in it but in a completion's arguments.
        let handler = (start - 1)...end
        for flag in flags {
            var declared = false
            for token in Int(body.open)..<Int(body.close)
            where !handler.contains(token) && file.isIdentifier(token) && file.text(token) == flag
                && !file.isPunct(token - 1, ASCII.dot)
            {
                if file.word(token - 1) == .var, Int(file.scopeOf[token]) == Int(file.scopeOf[assignment]) {
                    declared = true
                } else if !inCompletionArguments(token) {
                    return false
                }
            }
            guard declared else { return false }
        }
        return true
    }

    /// Whether `token` lies in the parentheses of a `setTaskCompleted(…)` call.
    private func inCompletionArguments(_ token: Int) -> Bool {
        var cursor = token - 1
        while cursor >= 0, token - cursor < 16 {
            if file.isPunct(cursor, ASCII.openParen), Int(file.matching[cursor]) > token {
                return file.is(cursor - 1, "setTaskCompleted")
            }
            cursor -= 1
        }
        return false
    }

    /// Whether the code in `start..<end` (the expiration handler set at `assignment`) only cancels the operations of a
    /// queue of the body around it (`queue.cancelAllOperations()`) and besides only logs, while cancelling stops none
    /// of them: every operation the body adds to that queue is a block that never reads `isCancelled`, and no
    /// completion block completes the task on cancelling (an operation already running runs its block to the end), or
    /// a block that merely starts a `Task` (`BlockOperation { Task { … } }`, finished when its `Task` began); or the
    /// queue is a local of the body that is given no operation at all.
    private func cancelsIgnoredOperations(from start: Int, to end: Int, setAt assignment: Int) -> Bool {
        guard
            let cancel = (start..<end).first(where: {
                file.is($0, "cancelAllOperations") && file.isPunct($0 - 1, ASCII.dot) && file.isIdentifier($0 - 2)
            }),
            onlyLogs(from: start, to: cancel - 2), onlyLogs(from: cancel + 3, to: end)
        else { return false }
        let queue = file.text(cancel - 2)
        let body = file.scopes[Int(file.scopeOf[assignment])]
        guard body.open >= 0, body.close > body.open else { return false }
        let range = Int(body.open)..<Int(body.close)
        // A completion block (`operation.completionBlock = { task.setTaskCompleted(…) }`) runs as soon as a cancelled
        // operation that had not started is taken off the queue: cancelling completes the task then.
        let setsCompletionBlock = range.contains { file.is($0, "completionBlock") }
        if let ignored = addedOperationsIgnoreCancellation(queue, in: range, completionBlocks: setsCompletionBlock) {
            return ignored
        }
        // `let queue = OperationQueue()` in the body, nothing added to it, and named besides only to set its own
        // properties (`queue.maxConcurrentOperationCount = 2`) and in the expiration handler: handed to nothing that
        // could give it work.
        var declared = false
        for token in range
        where file.isIdentifier(token) && file.text(token) == queue && !file.isPunct(token - 1, ASCII.dot) {
            if file.word(token - 1) == .let, file.isPunct(token + 1, ASCII.equals),
                file.is(token + 2, "OperationQueue"),
                file.isPunct(token + 3, ASCII.openParen), file.isPunct(token + 4, ASCII.closeParen)
            {
                declared = true
            } else if (start..<end).contains(token)
                || (file.isPunct(token + 1, ASCII.dot) && file.isIdentifier(token + 2)
                    && file.isPunct(token + 3, ASCII.equals) && !file.isPunct(token + 4, ASCII.equals))
            {
                continue
            } else {
                return false
            }
        }
        return declared
    }

    /// Whether every operation the code in `range` adds to `queue` is a block that goes on when cancelled: one that
    /// merely starts a `Task`, or one that never reads `isCancelled` (unless `completionBlocks`: a completion block
    /// runs at once for an operation cancelled before it started); `nil` when it adds none.
    private func addedOperationsIgnoreCancellation(_ queue: String, in range: Range<Int>, completionBlocks: Bool)
        -> Bool?
    {
        var added = 0
        for token in range where file.isPunct(token - 1, ASCII.dot) && file.text(token - 2) == queue {
            // Operations given in an array, or on a queue's other adders, are not followed.
            if file.is(token, "addOperations") || file.is(token, "addBarrierBlock") { return false }
            guard file.is(token, "addOperation") else { continue }
            let block: Int?
            if file.isPunct(token + 1, ASCII.openBrace) {
                block = token + 1
            } else if file.isPunct(token + 1, ASCII.openParen), file.isIdentifier(token + 2),
                file.isPunct(token + 3, ASCII.closeParen)
            {
                block = operationBlock(named: file.text(token + 2), in: range.lowerBound..<token)
            } else {
                block = nil
            }
            guard let block, onlyStartsTask(block) || (ignoresCancellation(block) && !completionBlocks) else {
                return false
            }
            added += 1
        }
        return added > 0 ? true : nil
    }

    /// The `{` of the block of `let name = BlockOperation { … }` declared in `range`.
    private func operationBlock(named name: String, in range: Range<Int>) -> Int? {
        range.first { token in
            file.isIdentifier(token) && file.text(token) == name && file.isPunct(token + 1, ASCII.equals)
                && file.is(token + 2, "BlockOperation") && file.isPunct(token + 3, ASCII.openBrace)
        }.map { $0 + 3 }
    }

    /// Whether the closure opened at `open` is one `Task { … }` and nothing else.
    private func onlyStartsTask(_ open: Int) -> Bool {
        let close = Int(file.matching[open])
        guard close > open, file.is(open + 1, "Task"), file.isPunct(open + 2, ASCII.openBrace) else { return false }
        let taskClose = Int(file.matching[open + 2])
        return taskClose + 1 == close
    }

    /// Whether the operation block opened at `open` never reads `isCancelled` nor calls `cancel`, and does not
    /// complete the task itself before it ends (`setTaskCompleted` in the block, not in a closure it starts): once
    /// running, cancelling its operation does not stop it, and its work goes on after the block has returned or
    /// after time is up.
    private func ignoresCancellation(_ open: Int) -> Bool {
        let close = Int(file.matching[open])
        guard close > open else { return false }
        let own = file.scopeOf[open + 1]
        return !((open + 1)..<close).contains {
            file.is($0, "isCancelled") || file.is($0, "cancel")
                || (file.scopeOf[$0] == own && isCompletionOfTask($0))
        }
    }

    /// Whether the code in `start..<end` starts work for later — a closure given to `Task`, `Task.detached` or a
    /// queue's `async` — and besides only logs: what that work cancels or completes happens after the expiration
    /// handler has returned, when the time it was called for is up.
    private func onlyDefers(from start: Int, to end: Int) -> Bool {
        var piece = start
        var deferred = false
        var index = start
        while index < end {
            if let (call, close) = deferredClosure(openingAt: index), call >= piece {
                guard onlyLogs(from: piece, to: call) else { return false }
                deferred = true
                index = close + 1
                piece = index
                continue
            }
            index += 1
        }
        return deferred && onlyLogs(from: piece, to: end)
    }

    /// Whether the closure opened at `open` completes the task only in a closure it hands to `Task`, `Task.detached` or
    /// a queue's `async` (`deferredClosure`).
    private func completesLater(in open: Int, _ close: Int) -> Bool {
        ((open + 1)..<close).contains { index in
            guard let (_, end) = deferredClosure(openingAt: index) else { return false }
            return ((index + 1)..<end).contains(where: isCompletionOfTask)
        }
    }

    /// The name of the call and the `}` of the closure whose `{` is at `index`, when it is the trailing closure of a
    /// call that runs it after returning (`CompletionPaths.deferringCalls`).
    private func deferredClosure(openingAt index: Int) -> (call: Int, close: Int)? {
        guard file.isPunct(index, ASCII.openBrace) else { return nil }
        let scope = file.scopes[Int(file.scopeOf[index])]
        let close = Int(file.matching[index])
        guard scope.kind == .closure, Int(scope.open) == index, scope.name >= 0, close > index,
            CompletionPaths.deferringCalls.contains(file.text(Int(scope.name)))
        else { return nil }
        return (Int(scope.name), close)
    }

    /// Whether the call whose name is at `index` is read for its value (in a condition, on the right of `=`, as an
    /// argument, after `return`) rather than made as a statement of its own.
    private func resultIsRead(callAt index: Int) -> Bool {
        var start = index
        while file.isPunct(start - 1, ASCII.dot) || file.isPunct(start - 1, ASCII.question) {
            var receiver = start - 1
            if file.isPunct(receiver, ASCII.dot) { receiver -= 1 }
            if file.isPunct(receiver, ASCII.question) || file.isPunct(receiver, ASCII.bang) { receiver -= 1 }
            if file.isPunct(receiver, ASCII.closeParen) || file.isPunct(receiver, ASCII.closeBracket) {
                let open = Int(file.matching[receiver])
                guard open >= 0, open < receiver else { return true }
                receiver = open - 1
            }
            guard file.isIdentifier(receiver) else { return true }
            start = receiver
        }
        while file.word(start - 1) == .try || file.word(start - 1) == .await { start -= 1 }
        if file.startsStatement(start) { return isImplicitReturn(from: start) }
        let previous = start - 1
        // `_ = sdk.process(payload, completion: completion)` throws the answer away: the call is made for what it
        // does, as a statement of its own.
        if file.isPunct(previous, ASCII.equals), file.is(previous - 1, "_"), file.startsStatement(previous - 1) {
            return false
        }
        let endsStatement =
            file.isPunct(previous, ASCII.openBrace) || file.isPunct(previous, ASCII.closeBrace)
            || file.isPunct(previous, ASCII.semicolon) || file.word(previous) == .in || file.word(previous) == .else
        return !endsStatement
    }

    /// Whether the expression at `start` is the whole body of a function that returns a value (`func parse(_ payload:
    /// [AnyHashable: Any]) -> UUID? { client.handle(payload) }`): its value is returned, so it is read.
    private func isImplicitReturn(from start: Int) -> Bool {
        let scope = file.scopes[Int(file.scopeOf[start])]
        guard scope.kind == .function, Int(scope.open) == start - 1, scope.head >= 0,
            file.expressionEnd(from: start, limit: Int(scope.close)) == Int(scope.close)
        else { return false }
        // The arrow after the parameter list, not one in a parameter's type (`completion: @escaping () -> Void`).
        guard let parameters = (Int(scope.head)..<Int(scope.open)).first(where: { file.isPunct($0, ASCII.openParen) }),
            file.matching[parameters] > parameters
        else { return false }
        return (Int(file.matching[parameters])..<Int(scope.open)).contains {
            file.isPunct($0, ASCII.minus) && file.isPunct($0 + 1, ASCII.greater)
        }
    }

    /// Whether the chain a member call at `index` is made on starts at a weakly held `self` (`self?.calls.handle(…)`),
    /// which is `nil` once the object is gone. An optional property (`provider?.report(…)`) is left alone: it is
    /// most often set once at launch.
    private func startsAtWeakSelf(_ index: Int) -> Bool {
        var dot = index - 1
        while file.isPunct(dot, ASCII.dot) {
            if file.isPunct(dot - 1, ASCII.question) {
                return file.word(dot - 2) == .`self` && !file.isPunct(dot - 3, ASCII.dot)
            }
            guard file.isIdentifier(dot - 1) else { return false }
            dot -= 2
        }
        return false
    }

    /// Whether a call's arguments pass this object as a delegate (`delegate: self`).
    private func namesSelfAsDelegate(_ arguments: [Argument]) -> Bool {
        arguments.contains {
            $0.label >= 0 && file.text($0.label).lowercased().hasSuffix("delegate") && $0.end == $0.start + 1
                && file.word($0.start) == .`self`
        }
    }

    /// For `name = alias` at `index`: `name` when it is a plain variable declared earlier in the same function
    /// body (`var info = [AnyHashable: Any]()`), not a property or a variable of an enclosing scope.
    private func localAssigned(at index: Int) -> String? {
        let target = index - 2
        guard file.isIdentifier(target), file.word(target) == .none, !file.isPunct(target - 1, ASCII.dot) else {
            return nil
        }
        let name = file.text(target)
        var scope = Int(file.scopeOf[target])
        while scope > 0, !file.scopes[scope].isCallable, file.scopes[scope].kind != .closure {
            scope = Int(file.scopes[scope].parent)
        }
        guard scope > 0 else { return nil }
        let open = Int(file.scopes[scope].open)
        for token in open..<target where file.isIdentifier(token) && file.text(token) == name {
            if file.word(token - 1) == .var || file.word(token - 1) == .let { return name }
        }
        return nil
    }

    /// Whether the alias at `index` is the whole of the value it is part of: itself, cast (`as? BGProcessingTask`)
    /// or unwrapped (`task!`), or for a VoIP push its payload's dictionary (`payload.dictionaryPayload`), the
    /// expression ending there; not a value read out of it (`info["id"]`, `payload.uuid`, `dictionary.count`).
    private func isWholeValue(_ index: Int) -> Bool {
        var next = index + 1
        if file.isPunct(next, ASCII.bang) { next += 1 }
        if paths.obligation == .incomingCallReported, file.isPunct(next, ASCII.dot),
            file.is(next + 1, "dictionaryPayload")
        {
            next += 2
        }
        return valueEnds(at: next)
    }

    /// For a completion handler stored with the `=` at `equals` in a property (`self.pending = completionHandler`,
    /// `onFinish = { … completionHandler(…) }`): an overwrite when the body has not looked at the property before.
    private mutating func noteOverwrite(ofPropertyAssignedAt equals: Int) {
        guard paths.obligation == .completionHandlerCalled, file.isIdentifier(equals - 1),
            file.word(equals - 1) == .none
        else { return }
        let target = equals - 1
        let name = file.text(target)
        // `self.pending`, or a bare name (a local is declared before, which the search below finds).
        if file.isPunct(target - 1, ASCII.dot) {
            guard file.word(target - 2) == .`self`, !file.isPunct(target - 3, ASCII.dot) else { return }
        }
        // A declaration (`let op: Operation = { … }()`) makes a new value; it replaces nothing.
        var start = target
        while start > 0, !file.startsStatement(start), !file.isPunct(start - 1, ASCII.openBrace),
            !file.isPunct(start - 1, ASCII.closeBrace), !file.isPunct(start - 1, ASCII.semicolon)
        {
            start -= 1
        }
        guard file.word(start) != .let, file.word(start) != .var else { return }
        var scope = Int(file.scopeOf[target])
        while scope > 0, !file.scopes[scope].isCallable { scope = Int(file.scopes[scope].parent) }
        // An initialiser keeps the handler in an object made for it, which held none before.
        guard scope > 0, file.word(Int(file.scopes[scope].head)) != .`init` else { return }
        let body = Int(file.scopes[scope].open)
        // Any earlier mention (`guard pending == nil`, `pending?(.noData)`, a local of that name) is a look.
        guard !(body..<target).contains(where: { file.isIdentifier($0) && file.text($0) == name }) else { return }
        found.overwrites.append(site(target))
    }

    private func isStoredValue(_ index: Int) -> Bool {
        guard file.isPunct(index - 1, ASCII.equals), !file.isPunct(index - 2, ASCII.equals),
            !file.isPunct(index - 2, ASCII.bang), !file.isPunct(index - 2, ASCII.less),
            !file.isPunct(index - 2, ASCII.greater)
        else { return false }
        let declared = file.word(index - 3)
        if declared == .let || declared == .var { return false }
        // `let name: Type = alias.member`: a declaration with a type annotation, not a place it is kept.
        var cursor = index - 2
        while cursor > index - 14, cursor > 1, !file.startsStatement(cursor) {
            if file.isPunct(cursor, ASCII.colon), file.isIdentifier(cursor - 1),
                file.word(cursor - 2) == .let || file.word(cursor - 2) == .var
            {
                return false
            }
            cursor -= 1
        }
        return true
    }

    private mutating func call(_ name: String, at index: Int, arguments: [Argument], _ state: inout Fall, inDo: Bool) {
        let before = finishes
        defer { if finishes > before, case .completed = state { finishedBy = index } }
        if paths.isFinishingCall(name: name, arguments: arguments, in: file, aliases: aliases) {
            if paths.obligation == .taskCompleted, guarded == 0, !keptForLater, !finishedByConditionalDefer,
                case .completed = state
            {
                found.repeated.append(site(index))
            }
            finish(&state)
            return
        }
        let isMember = file.isPunct(index - 1, ASCII.dot)
        let labels = arguments.map { $0.label >= 0 ? file.text($0.label) : "_" }
        if !isMember, Self.processEndingCalls.contains(name),
            paths.project.resolved(file: fileIndex, token: index, name: name, labels: labels).isEmpty
        {
            if paths.obligation == .backgroundTaskEnded {
                // `exit(0)`, `abort()`: the process ends, and every background task it began ends with it.
                found.endsProcess = true
                finish(&state)
            } else {
                // The process ends here: no path goes on to leave the work unfinished.
                state = .none
            }
            return
        }
        if name == "submit", isMember, arguments.count == 1, arguments[0].label < 0 { found.submits = true }
        let project = paths.project
        var resolved = project.resolved(file: fileIndex, token: index, name: name, labels: labels)
        if isMember, file.word(index - 2) != .`self`, resolved.count == 1,
            resolved[0] == CallableID(file: Int32(fileIndex), index: project.caller(file: fileIndex, token: index))
        {
            // `client.handlePushNotification(payload)` inside the project's own `handlePushNotification`: a method
            // of another object (an SDK's) that shares the name, not a call back into the function it is written in.
            resolved = []
        }
        let callee =
            ProjectIndex.unique(resolved, in: project.index, from: Int32(fileIndex))
            ?? nestedFunction(among: resolved, visibleAt: index)
        if resolved.contains(where: project.index.submitting.contains) { found.submits = true }
        for argument in arguments where paths.obligation == .taskCompleted && !found.submits {
            // A function that submits, passed by name for the callee to call (`handle(task, scheduleNext:
            // self.scheduleRefresh)`).
            let reference =
                file.word(argument.start) == .`self` && file.isPunct(argument.start + 1, ASCII.dot)
                ? argument.start + 2 : argument.start
            guard argument.end == reference + 1, file.isIdentifier(reference), file.word(reference) == .none,
                project.index.submittingNames.contains(file.text(reference))
            else { continue }
            let named = project.resolved(file: fileIndex, token: reference, name: file.text(reference), labels: [])
            if named.contains(where: project.index.submitting.contains) { found.submits = true }
        }
        if paths.obligation == .incomingCallReported, resolved.isEmpty, isMember,
            name == "reportIncomingCall" || labels.contains("fromPushKit")
        {
            // A calling SDK's own `reportIncomingCall(…)` (Azure's `CallClient`, given the push's details) reports
            // the call to CallKit itself; its callback runs after. So does a CallKit plugin's call told the call comes
            // from PushKit (flutter_callkeep's `displayIncomingCall(data, fromPushKit: true)`), which must report it
            // before the push callback returns.
            finish(&state)
            return
        }
        let handedOver = arguments.indices.filter { isAliasArgument(arguments[$0]) }
        if resolved.isEmpty, !handedOver.isEmpty || paths.obligation == .incomingCallReported,
            case let closures = project.closuresAssigned(to: name), !closures.isEmpty,
            case let outcomes = closures.compactMap({ paths.closure($0, parameters: handedOver, depth: depth + 1) }),
            outcomes.count == closures.count, !handedOver.isEmpty || outcomes.contains(where: \.mentions)
        {
            // A property holding a closure the sources assign (`onIncomingPush(payload, completion)`, set elsewhere
            // to `{ payload, done in calls.handle(payload, completion: done) }`): each such closure is followed as a
            // function would be. A VoIP push's report needs no value handed on, so its closures are followed
            // whenever one of them reports.
            absorbEach(outcomes, at: index, &state, inDo: inDo)
            return
        }
        if paths.obligation == .incomingCallReported, isMember, name == "send",
            file.isIdentifier(index - 2), !file.isPunct(index - 3, ASCII.dot) || file.word(index - 4) == .`self`,
            case let closures = paths.subscribedClosures(of: file.text(index - 2)), !closures.isEmpty,
            case let outcomes = closures.compactMap({ paths.closure($0, parameters: [], depth: depth + 1) }),
            outcomes.count == closures.count, outcomes.contains(where: \.mentions)
        {
            // A push's details sent through a Combine subject (`pushes.send(call)`), whose subscriber reports the
            // call (`pushes.sink { call in provider.reportNewIncomingCall(…) }`): each subscriber runs on the send, as
            // a function called there would.
            absorbEach(outcomes, at: index, &state, inDo: inDo)
            return
        }
        if !handedOver.isEmpty {
            // Arguments map to parameters past any defaulted ones the call leaves out.
            let positions = callee.flatMap {
                ProjectIndex.parameterPositions(of: labels, in: project.index.callable($0))
            }
            let parameters = handedOver.map { positions?[$0] ?? $0 }
            if let callee, overrideFinishes(callee, parameters: parameters) {
                // A subclass's override the call may run instead finishes the work (a base class's method left
                // empty for the subclass the app installs): which one runs cannot be told, so it counts as done.
                found.escaped = true
                found.finishesLater = true
                finish(&state)
            } else if let callee, let outcome = paths.helper(callee, parameters: parameters, depth: depth + 1) {
                absorb(outcome, at: index, &state, inDo: inDo)
                if paths.obligation == .taskCompleted, isMember, file.isPunct(index - 2, ASCII.question),
                    parameters == [0],
                    project.index.callable(callee).firstParameterType.map(project.index.standsForBackgroundTask) == true
                {
                    // `self?.handle(task)`, a function declared to take the `BGTask` (or the project's protocol it
                    // conforms to): when the chain is `nil` the task is never handed on.
                    found.skippedHandOvers.append(site(index))
                } else if paths.obligation == .completionHandlerCalled, isMember,
                    file.isPunct(index - 2, ASCII.question)
                {
                    // `scene?.handle(userInfo, completion: completionHandler)`: when the chain is `nil` the
                    // completion handler is never handed on, and never called.
                    found.skippedHandOvers.append(site(index))
                }
            } else if callee == nil, paths.obligation == .taskCompleted, handedOver == [0],
                let outcomes = implementationOutcomes(of: resolved)
            {
                // `handler.handle(task)` through the app's own protocol, each conformer's `handle(_ task: BGTask)`
                // a function that may run: each is followed, and where one leaves the task uncompleted, that is a
                // path that leaves it. Through an optional chain (`job?.resume(task: task)`, an overridden method),
                // the task is never handed on when the chain is `nil`.
                absorbEach(outcomes, at: index, &state, inDo: inDo)
                if isMember, file.isPunct(index - 2, ASCII.question) { found.skippedHandOvers.append(site(index)) }
            } else if callee == nil, paths.obligation == .incomingCallReported, resultIsRead(callAt: index),
                !namesSelfAsDelegate(arguments)
            {
                // A push's payload given to code outside the sources that answers with a value (`if
                // sdk.isCall(payload)`, `guard let call = sdk.parse(payload)`, a formatted log line): that code
                // reads the payload; it does not take the push over, and the path owes the report still. Code given
                // this object as its delegate as well (`if !sdk.handle(payload, delegate: self)`) calls back with
                // the call it finds, and takes the push over whatever it answers.
            } else if let callee, paths.isBeingFollowed(callee) {
                // A call back into a function being followed (a retry: `self.fetchChanges(…, completionHandler:
                // completionHandler)` after an expired token): it does the same work again, and where it leaves the
                // work unfinished is where this walk reports it.
                found.finishesLater = true
                finish(&state)
            } else if callee != nil || !paths.isLogging(name) && !isConstructorOfData(name) {
                // Outside the sources, or a project function too deep to follow: whoever receives it finishes the
                // work.
                found.escaped = true
                found.handedOutside = true
                found.finishesLater = true
                finish(&state)
            }
            return
        }
        if let callee {
            if isNested(callee), captures(callee),
                let outcome = paths.helper(callee, parameters: [], depth: depth + 1, captured: aliases)
            {
                absorb(outcome, at: index, &state, inDo: inDo)
            } else if paths.mayFinish(callee), let outcome = paths.helper(callee, parameters: [], depth: depth + 1) {
                absorb(outcome, at: index, &state, inDo: inDo)
                if paths.obligation == .incomingCallReported, isMember, outcome.mentions, startsAtWeakSelf(index) {
                    // `self?.calls.handle(payload)` from a closure that holds `self` weakly: when the chain is `nil`,
                    // nothing reports the call.
                    found.skippedHandOvers.append(site(index))
                }
            }
        } else if paths.obligation == .incomingCallReported,
            case let bodies = resolved.filter({ project.index.callable($0).open >= 0 }), bodies.count > 1,
            Set(bodies.map { project.index.callable($0).labels }).count == 1,
            bodies.allSatisfy(paths.reportsCall),
            case let outcomes = bodies.compactMap({ paths.helper($0, parameters: [], depth: depth + 1) }),
            outcomes.count == bodies.count
        {
            // Every function the call may reach, all declared alike, reports the call (two call managers behind one
            // delegate protocol, whose requirement has no body): each is followed, and where one returns without
            // reporting, that is a path that skips the report. Overloads with other labels are not: only one of them
            // is the one called.
            absorbEach(outcomes, at: index, &state, inDo: inDo)
        } else if paths.obligation == .incomingCallReported, resolved.count > 1,
            resolved.contains(where: paths.reportsCall)
        {
            // One of several project functions the call may reach reports the call (the class, a subclass, a test
            // double): which one runs cannot be told, so the report counts as made there.
            found.escaped = true
            found.finishesLater = true
            finish(&state)
        }
    }

    /// Absorbs the outcomes of the several functions one call may reach, as one: the path left open by the first
    /// stands for the others' unfinished paths too.
    private mutating func absorbEach(_ outcomes: [PathOutcome], at index: Int, _ state: inout Fall, inDo: Bool) {
        guard let first = outcomes.first else { return }
        absorb(first, at: index, &state, inDo: inDo)
        for outcome in outcomes.dropFirst() {
            guard case .open(let origin) = state else {
                absorb(outcome, at: index, &state, inDo: inDo)
                continue
            }
            found.addFacts(of: outcome)
            found.returnedUnfinished[origin, default: []] += outcome.unfinishedSites
        }
    }

    /// The outcomes of the functions a call handing on the task as its one unlabelled argument may reach, when there
    /// are several with bodies, declared alike (the conformers of the app's own protocol, whose requirement has no
    /// body), each taking a background task (`func handle(_ task: BGTask)`); `nil` otherwise.
    private func implementationOutcomes(of resolved: [CallableID]) -> [PathOutcome]? {
        let index = paths.project.index
        let bodies = resolved.filter { index.callable($0).open >= 0 }
        guard bodies.count > 1, Set(bodies.map { index.callable($0).labels }).count == 1,
            bodies.allSatisfy({ index.callable($0).firstParameterType.map(index.standsForBackgroundTask) == true })
        else { return nil }
        let outcomes = bodies.compactMap { paths.helper($0, parameters: [0], depth: depth + 1) }
        return outcomes.count == bodies.count ? outcomes : nil
    }

    /// Calls that end the process (or trap), and with it every background task it began.
    private static let processEndingCalls: Set<String> = ["exit", "abort", "fatalError", "preconditionFailure"]

    /// Whether an override of `callee` in a subclass finishes the work handed to it on every path, while `callee`
    /// itself does not.
    private func overrideFinishes(_ callee: CallableID, parameters: [Int]) -> Bool {
        let overrides = paths.project.index.overrides(of: callee)
        guard !overrides.isEmpty else { return false }
        func finishesAlways(_ id: CallableID) -> Bool {
            guard let outcome = paths.helper(id, parameters: parameters, depth: depth + 1) else { return false }
            guard outcome.mentions, outcome.leaks.isEmpty, outcome.thrown.isEmpty else { return false }
            if case .open = outcome.fall { return false }
            return true
        }
        return !finishesAlways(callee) && overrides.contains(where: finishesAlways)
    }

    /// Of several functions a call may reach, the one nested in a function around the call (the innermost), which
    /// is the one its name refers to there: sibling functions may each nest a `finish` of their own.
    private func nestedFunction(among resolved: [CallableID], visibleAt index: Int) -> CallableID? {
        var best: (id: CallableID, open: Int)?
        for id in resolved where Int(id.file) == fileIndex && isNested(id) {
            let parent = Int(file.scopes[Int(paths.project.index.callable(id).scope)].parent)
            guard let around = file.callable(containing: Int(file.scopes[parent].open) + 1).map({ file.scopes[$0] }),
                Int(around.open) < index, index < Int(around.close)
            else { continue }
            if best == nil || Int(around.open) > best!.open { best = (id, Int(around.open)) }
        }
        return best?.id
    }

    /// Whether the project function `callee` is declared in this file inside another function, whose names it sees.
    private func isNested(_ callee: CallableID) -> Bool {
        guard Int(callee.file) == fileIndex else { return false }
        var scope = Int(file.scopes[Int(paths.project.index.callable(callee).scope)].parent)
        while scope > 0 {
            if file.scopes[scope].isCallable { return true }
            scope = Int(file.scopes[scope].parent)
        }
        return false
    }

    /// Whether the body of `callee`, a function in this file, names the work by one of the names it has here.
    private func captures(_ callee: CallableID) -> Bool {
        let scope = file.scopes[Int(paths.project.index.callable(callee).scope)]
        let open = Int(scope.open)
        let close = min(Int(scope.close), file.count)
        guard open >= 0, close > open else { return false }
        return (open..<close).contains { file.isIdentifier($0) && aliases.contains(file.text($0)) }
    }

    /// Building a value from a push payload (`IncomingCall(payload.dictionaryPayload)`) does not hand the push
    /// over; passing a task or a completion handler to a new object does.
    private func isConstructorOfData(_ name: String) -> Bool {
        paths.obligation == .incomingCallReported && name.first?.isUppercase == true
    }

    /// Takes in what a called function (its name at `call`) did with the work it was handed. Its paths that return
    /// without finishing come back here: the caller's path goes on unfinished from the call, standing for them, and
    /// they are leaks only if that path does not finish the work either (a helper that returns a value the caller
    /// then acts on). One that completes the task itself, called where the path already has, repeats it.
    private mutating func absorb(_ outcome: PathOutcome, at call: Int, _ state: inout Fall, inDo: Bool) {
        found.addFacts(of: outcome)
        guard outcome.mentions else { return }
        found.finishesLater = found.finishesLater || outcome.finishesLater
        if !inDo { found.thrown += outcome.thrown }
        let unfinished = outcome.unfinishedSites
        if paths.obligation == .taskCompleted, guarded == 0, case .completed = state, unfinished.isEmpty,
            !outcome.finishesLater, !outcome.escaped
        {
            // A function that completes the task itself, called on a path that already has.
            found.repeated.append(site(call))
        }
        if case .completed = state {
            // Handed on after the path has finished the work (a call's details passed on inside the callback of the
            // report that made it): nothing is left for the function to leave unfinished, and the call is not the one
            // that finished the work.
            found.mentions = true
            return
        }
        guard isOpen(state), !unfinished.isEmpty else {
            found.leaks += unfinished
            // Kept by the function (`Wrapper(task: task)` storing it): finishing it afterwards, through the object
            // or the task itself, is the first time, as after a store in this body.
            if outcome.escaped, outcome.finishesLater { keptForLater = true }
            finish(&state)
            return
        }
        found.mentions = true
        let standIn = site(call)
        found.returnedUnfinished[standIn, default: []] += unfinished
        if !resultIsRead(callAt: call) { found.skipsReportedInPlace.formUnion(unfinished) }
        state = .open(standIn)
    }

    /// A `return` at `index` on a path left unfinished: a leak there, unless the path is open only because called
    /// functions whose result goes unread skipped the work, or cases of a `switch` skipped it where another case
    /// finished it, whose skips are then the leaks.
    private mutating func returnUnfinished(at index: Int, _ state: Fall) {
        guard case .open(let origin) = state, let sites = found.returnedUnfinished[origin] else {
            found.leaks.append(site(index))
            return
        }
        let ownSites = sites.filter(found.skipsReportedInPlace.contains)
        found.leaks += ownSites
        if ownSites.count < sites.count { found.leaks.append(site(index)) }
    }
}
