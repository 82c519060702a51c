// One file for one check: its helpers each answer one question about a background task's identifier and share the
// check's project; they are private to it, and no other check asks them.

/// `UIApplication.beginBackgroundTask`: the identifier is kept, ended on every path after the call, and ended
/// by the expiration handler.
struct BackgroundTaskCheck {
    let project: Project

    func run(into findings: inout [Finding]) {
        let paths = CompletionPaths(project: project, obligation: .backgroundTaskEnded)
        var ended = Ends()
        for fileIndex in 0..<project.fileCount {
            for end in project.summary(fileIndex).taskEnds {
                let caller = CallableID(file: Int32(fileIndex), index: end.caller)
                let onNormalPath = endsOnNormalPath(caller)
                if onNormalPath {
                    ended.onNormalPath.insert(end.name)
                    ended.endedIn[end.name, default: []].insert(caller)
                }
                // A private function only expiration handlers call ends the task only when time runs out, whoever
                // calls the function that begins it.
                if onNormalPath || !project.index.callable(caller).isPrivate { ended.anywhere.insert(end.name) }
            }
        }
        for fileIndex in 0..<project.fileCount where project.summary(fileIndex).needsDetailedPass {
            let file = project.file(fileIndex)
            for token in 0..<file.count
            where file.isBeginBackgroundTask(token) && file.isPunct(token - 1, ASCII.dot)
                // A call, not a property of the same name (`self.beginBackgroundTask`, an identifier kept).
                && (file.isPunct(token + 1, ASCII.openParen) || file.isPunct(token + 1, ASCII.openBrace))
                && !isProjectFunction(token, in: file, fileIndex: fileIndex)
                && !forwardsHandler(token, in: file, fileIndex: fileIndex)
            {
                check(token, in: file, fileIndex: fileIndex, ended: ended, paths: paths, into: &findings)
            }
        }
        for site in wrapperCalls(where: returnsForwardedBegin) {
            let file = project.file(Int(site.file))
            let token = Int(site.token)
            guard !forwardsHandler(token, in: file, fileIndex: Int(site.file)) else { continue }
            check(token, in: file, fileIndex: Int(site.file), ended: ended, paths: paths, into: &findings)
        }
        for site in wrapperCalls(where: returnsOwnBegin) {
            let file = project.file(Int(site.file))
            let token = Int(site.token)
            guard file.isPunct(token + 1, ASCII.openParen), Int(file.matching[token + 1]) > token + 1 else { continue }
            // The wrapper's own expiration handler ends the task; its caller owns ending it on every path.
            checkIdentifier(
                token, end: Int(file.matching[token + 1]) + 1, expiration: nil, in: file, fileIndex: Int(site.file),
                ended: ended, paths: paths, into: &findings)
        }
    }

    /// Whether the task `name` begun at `token` in a callback UIKit makes on the main thread (`applicationDid…`,
    /// `scene…`), or in a function of the main actor (`@MainActor`, itself or its type), is ended later in the same
    /// body with only plain statements between (no closure, block, `await` or exit): the main thread is busy until the
    /// end, so the expiration handler, which runs on it, cannot run first and end the task too.
    private func endedWhileMainIsBusy(
        _ name: String, begunAt token: Int, from end: Int, in file: SourceFile, fileIndex: Int
    )
        -> Bool
    {
        guard let call = project.call(file: fileIndex, token: token) else { return false }
        let caller = project.index.callable(CallableID(file: Int32(fileIndex), index: call.caller))
        guard caller.kind == .function, Int(file.scopeOf[token]) == Int(caller.scope),
            caller.name.hasPrefix("application") || caller.name.hasPrefix("scene")
                || Self.isOnMainActor(scope: Int(caller.scope), in: file)
        else { return false }
        let close = min(Int(file.scopes[Int(caller.scope)].close), file.count)
        var index = end
        while index < close {
            if file.isPunct(index, ASCII.openBrace) || file.isPunct(index, ASCII.closeBrace)
                || file.word(index) == .await || file.word(index) == .return || file.word(index) == .throw
            {
                return false
            }
            // The identifier, or a member of that name (`task.id`).
            if file.is(index, "endBackgroundTask"), file.isPunct(index + 1, ASCII.openParen),
                file.arguments(ofCallAt: index + 1).contains(where: {
                    $0.end > $0.start && file.text($0.end - 1) == name
                })
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// Whether the function whose body is scope `scope`, or the type around it, is marked `@MainActor`.
    private static func isOnMainActor(scope: Int, in file: SourceFile) -> Bool {
        func marked(_ head: Int) -> Bool {
            var index = head - 1
            while index >= 0, head - index <= 12,
                file.isIdentifier(index) || file.isPunct(index, ASCII.at) || file.isPunct(index, ASCII.closeParen)
            {
                if file.is(index, "MainActor"), file.isPunct(index - 1, ASCII.at) { return true }
                if file.isPunct(index, ASCII.closeParen) {
                    let open = Int(file.matching[index])
                    guard open >= 0, open < index else { return false }
                    index = open
                }
                index -= 1
            }
            return false
        }
        let function = file.scopes[scope]
        if function.head >= 0, marked(Int(function.head)) { return true }
        guard let type = file.enclosingType(ofScope: scope), file.scopes[type].head >= 0 else { return false }
        return marked(Int(file.scopes[type].head))
    }

    /// Whether the task begun by the call at `token` (which ends before `end`) is ended by the very next statement,
    /// also when the begin closes an `if` or `else` branch (`if let handler { id = app.beginBackgroundTask(…) } else {
    /// id = app.beginBackgroundTask { } }; app.endBackgroundTask(id)`): nothing runs between, so the expiration handler,
    /// which UIKit calls only when time runs out, never runs, and it owes nothing.
    private func endedByNextStatement(_ token: Int, end: Int, in file: SourceFile) -> Bool {
        var start = token
        while file.isPunct(start - 1, ASCII.dot), file.isIdentifier(start - 2) || file.word(start - 2) == .`self` {
            start -= 2
        }
        guard file.isPunct(start - 1, ASCII.equals), file.isIdentifier(start - 2) else { return false }
        let name = file.text(start - 2)
        var cursor = end
        var scope = Int(file.scopeOf[token])
        // Out of the `if`/`else` branches the begin is the last statement of, past the `else` branch after them.
        while file.isPunct(cursor, ASCII.closeBrace), file.scopes[scope].kind == .control,
            Int(file.scopes[scope].close) == cursor
        {
            cursor += 1
            if file.word(cursor) == .else, file.isPunct(cursor + 1, ASCII.openBrace) {
                let close = Int(file.matching[cursor + 1])
                guard close > cursor else { return false }
                cursor = close + 1
            }
            scope = Int(file.scopes[scope].parent)
        }
        var call = cursor
        while file.isIdentifier(call) || file.word(call) == .`self`, file.isPunct(call + 1, ASCII.dot) { call += 2 }
        return file.is(call, "endBackgroundTask") && file.isPunct(call + 1, ASCII.openParen)
            && file.isIdentifier(call + 2) && file.text(call + 2) == name && file.isPunct(call + 3, ASCII.closeParen)
            && Int(file.scopeOf[call]) == scope
    }

    /// The names passed to `endBackgroundTask(_:)` outside expiration handlers: `anywhere` (but in a private function
    /// only expiration handlers call), and `onNormalPath` where the call may run other than when time runs out.
    private struct Ends {
        var anywhere: Set<String> = []
        var onNormalPath: Set<String> = []
        /// The callables whose normal path ends each name.
        var endedIn: [String: Set<CallableID>] = [:]

        /// The ends that count for a task begun in `callable`. A helper nothing in the sources calls, and that the
        /// system does not call either, is called by code the audit cannot see, which may call its companion that
        /// ends the task too; a task begun where the sources show how it runs is ended only by ends on its normal
        /// path.
        func counting(for callable: CallableID, in index: ProjectIndex) -> Set<String> {
            index.callers(of: callable).isEmpty && !index.isSystemEntry(callable) ? anywhere : onNormalPath
        }
    }

    /// Whether an `endBackgroundTask(_:)` made in `callable` may run on the normal path: the callable is reached from
    /// outside (nothing in the sources calls it, or it is `public`, which the app a library is built into may call)
    /// or from a call outside every expiration handler. A function only expiration handlers call
    /// (`{ self?.endBackgroundTask() }`) ends the task only when time runs out.
    private func endsOnNormalPath(_ callable: CallableID) -> Bool {
        let callers = project.index.callers(of: callable)
        return callers.isEmpty || project.index.callable(callable).isPublic
            || callers.contains { !project.summary(Int($0.file)).calls[Int($0.index)].inExpirationHandler }
    }

    /// The calls of the app's own wrappers of other names that only hand UIKit's `beginBackgroundTask` the expiration
    /// handler they are given (`coreManager.startBackgroundTask { … }`, which reaches a `UIApplication` extension's
    /// `startBackgroundTask(expirationHandler:)`): the handler is chosen at the call, which begins the task as
    /// UIKit's does.
    private func wrapperCalls(where isWrapper: (CallableID) -> Bool) -> [Site] {
        var sites: Set<Site> = []
        for fileIndex in 0..<project.fileCount where project.summary(fileIndex).needsDetailedPass {
            for (index, callable) in project.summary(fileIndex).callables.enumerated()
            where callable.kind == .function && callable.open >= 0 && !callable.name.hasPrefix("beginBackgroundTask") {
                let id = CallableID(file: Int32(fileIndex), index: Int32(index))
                guard isWrapper(id) else { continue }
                for call in project.index.callers(of: id) {
                    sites.insert(Site(Int(call.file), Int(project.index.call(call).token)))
                }
            }
        }
        return sites.sorted { ($0.file, $0.token) < ($1.file, $1.token) }
    }

    /// Whether `x.beginBackgroundTask(…)` calls the app's own function of that name (a wrapper that returns a
    /// callback, say, or a coordinator's `beginBackgroundTask()` with several implementations) rather than UIKit's: it
    /// is not made on `UIApplication` itself and its labels and closure fit a function the project declares.
    private func isProjectFunction(_ token: Int, in file: SourceFile, fileIndex: Int) -> Bool {
        guard let call = project.call(file: fileIndex, token: token) else { return false }
        if case .type(let name) = call.receiver, name == "UIApplication" { return false }
        let functions = project.resolved(file: fileIndex, token: token, name: call.name, labels: call.labels).filter {
            let kind = project.index.callable($0).kind
            return kind == .function || kind == .initializer
        }
        // A wrapper that only hands UIKit its own expiration handler (a provider protocol's implementation, beside
        // its test doubles) begins the task as UIKit's function does: the call is judged here, where the handler is
        // chosen.
        if functions.contains(where: { project.index.callable($0).open >= 0 && isForwardingWrapper($0) }) {
            return false
        }
        return !functions.isEmpty
    }

    /// Whether `callable`'s body returns what UIKit's `beginBackgroundTask` returns, called with one of its own
    /// parameters as the expiration handler (`return application.beginBackgroundTask(expirationHandler: handler)`, or
    /// that call as the whole body): its caller keeps the identifier, as it would UIKit's. A wrapper that keeps the
    /// identifier itself owns ending it.
    private func returnsForwardedBegin(_ callable: CallableID) -> Bool {
        let file = project.file(Int(callable.file))
        let open = Int(project.index.callable(callable).open)
        return forwardingBegins(in: callable, dotted: false).contains { token in
            var start = token
            while file.isPunct(start - 1, ASCII.dot), file.isIdentifier(start - 2) || file.word(start - 2) == .self {
                start -= 2
            }
            return file.word(start - 1) == .return || start - 1 == open
        }
    }

    /// Whether `callable` takes no closure, begins a task with an expiration handler of its own that ends it, and
    /// returns the identifier (`var task = …; task = UIApplication.shared.beginBackgroundTask { end(task) }; return
    /// task`, or `task.rawValue`): its caller keeps the identifier, as it would UIKit's, and owes ending it on every
    /// path.
    private func returnsOwnBegin(_ callable: CallableID) -> Bool {
        let info = project.index.callable(callable)
        guard !info.takesClosure.contains(true),
            project.summary(Int(callable.file)).calls.contains(where: {
                $0.caller == callable.index && $0.name.hasPrefix("beginBackgroundTask")
            })
        else { return false }
        let file = project.file(Int(callable.file))
        let open = Int(info.open)
        let close = Int(file.matching[open])
        guard close > open else { return false }
        for token in open..<close
        where file.isBeginBackgroundTask(token) && file.isPunct(token - 1, ASCII.dot)
            && Int(file.scopeOf[token]) == Int(file.scopeOf[open + 1])
        {
            guard let call = Self.beginCall(at: token, in: file) else { return false }
            let handler =
                call.trailingClosure
                ?? Self.handlerArgument(call.arguments, of: token, in: file)
                .flatMap { file.isPunct($0.start, ASCII.openBrace) ? $0.start : nil }
            guard let handler, closureEndsTask(file, open: handler, fileIndex: Int(callable.file)) else { continue }
            // The identifier returned: the call is the returned expression, or it is assigned to a name the body's
            // last statement returns.
            var start = token
            while file.isPunct(start - 1, ASCII.dot), file.isIdentifier(start - 2) || file.word(start - 2) == .self {
                start -= 2
            }
            if file.word(start - 1) == .return || start - 1 == open { return true }
            guard file.isPunct(start - 1, ASCII.equals), file.isIdentifier(start - 2) else { continue }
            let name = file.text(start - 2)
            let last = file.isPunct(close - 1, ASCII.semicolon) ? close - 2 : close - 1
            if file.is(last, "rawValue"), file.isPunct(last - 1, ASCII.dot) {
                return file.word(last - 3) == .return && file.text(last - 2) == name
            }
            return file.word(last - 1) == .return && file.text(last) == name
        }
        return false
    }

    /// Whether `callable`'s body calls UIKit's `beginBackgroundTask` with one of its own parameters as the
    /// expiration handler.
    private func isForwardingWrapper(_ callable: CallableID) -> Bool {
        !forwardingBegins(in: callable, dotted: true).isEmpty
    }

    /// The calls of UIKit's `beginBackgroundTask` in `callable`'s body that pass one of its parameters as the
    /// expiration handler: made on a receiver (`application.beginBackgroundTask(…)`), or, unless `dotted`, also
    /// without one, in an extension of `UIApplication`.
    private func forwardingBegins(in callable: CallableID, dotted: Bool) -> [Int] {
        let file = project.file(Int(callable.file))
        let open = Int(project.index.callable(callable).open)
        let close = Int(file.matching[open])
        guard close > open else { return [] }
        return (open..<close).filter { token in
            file.isBeginBackgroundTask(token)
                && (file.isPunct(token - 1, ASCII.dot) || !dotted && file.word(token - 1) != .func)
                && forwardsHandler(token, in: file, fileIndex: Int(callable.file))
        }
    }

    /// Whether the `beginBackgroundTask` call at `token` passes, as its expiration handler, a parameter of the
    /// function it is written in: that function's callers choose the handler, and their calls are judged instead.
    private func forwardsHandler(_ token: Int, in file: SourceFile, fileIndex: Int) -> Bool {
        guard file.isPunct(token + 1, ASCII.openParen) else { return false }
        let arguments = file.arguments(ofCallAt: token + 1)
        guard let argument = Self.handlerArgument(arguments, of: token, in: file),
            file.isIdentifier(argument.start), file.word(argument.start) == .none,
            !file.isPunct(argument.start + 1, ASCII.dot), !file.isPunct(argument.start + 1, ASCII.openParen)
        else { return false }
        let callable = project.caller(file: fileIndex, token: token)
        let info = project.index.callable(CallableID(file: Int32(fileIndex), index: callable))
        return info.parameters.contains(file.text(argument.start))
    }

    /// The call of `beginBackgroundTask` at `token`: its arguments, the `{` of a trailing closure (the expiration
    /// handler), and the index after the call; `nil` when its brackets do not close.
    private static func beginCall(at token: Int, in file: SourceFile) -> (
        arguments: [Argument], trailingClosure: Int?, end: Int
    )? {
        var end = token + 1
        var arguments: [Argument] = []
        if file.isPunct(end, ASCII.openParen) {
            arguments = file.arguments(ofCallAt: end)
            let close = Int(file.matching[end])
            guard close > end else { return nil }
            end = close + 1
        }
        guard file.isPunct(end, ASCII.openBrace) else { return (arguments, nil, end) }
        let close = Int(file.matching[end])
        guard close > end else { return nil }
        return (arguments, end, close + 1)
    }

    /// The argument that is the expiration handler: the one labelled `expirationHandler:`, or the only argument of
    /// Swift 1 and 2's `beginBackgroundTaskWithExpirationHandler(_:)`, which has no label.
    private static func handlerArgument(_ arguments: [Argument], of token: Int, in file: SourceFile) -> Argument? {
        if let labelled = arguments.first(where: { $0.label >= 0 && file.is($0.label, "expirationHandler") }) {
            return labelled
        }
        guard file.is(token, "beginBackgroundTaskWithExpirationHandler"), arguments.count == 1,
            arguments[0].label < 0
        else { return nil }
        return arguments[0]
    }

    private func check(
        _ token: Int, in file: SourceFile, fileIndex: Int, ended: Ends, paths: CompletionPaths,
        into findings: inout [Finding]
    ) {
        let location = file.location(token)
        func report(_ message: String) {
            findings.append(Finding(rule: .unpairedBeginBackgroundTask, at: location, message: message))
        }
        guard let call = Self.beginCall(at: token, in: file) else { return }
        let end = call.end
        var expiration = call.trailingClosure
        if let argument = Self.handlerArgument(call.arguments, of: token, in: file) {
            if file.isPunct(argument.start, ASCII.openBrace) {
                expiration = argument.start
            } else if file.word(argument.start) == .nil {
                expiration = nil
                report(
                    "beginBackgroundTask has no expiration handler (`nil`): when time runs out nothing "
                        + "ends the task and iOS terminates the app.")
            } else if let local = localHandler(named: argument, before: token, in: file) {
                expiration = local.open
                if local.orNil {
                    report(
                        "The expiration handler passed to beginBackgroundTask is `nil` when its condition "
                            + "does not hold: then nothing ends the task when time runs out and iOS terminates "
                            + "the app.")
                }
            } else if !referenceEndsTask(file, argument, fileIndex: fileIndex) {
                report(
                    "The expiration handler passed to beginBackgroundTask does not call "
                        + "endBackgroundTask(_:); when time runs out, iOS terminates the app.")
            }
        } else if expiration == nil {
            report(
                "beginBackgroundTask has no expiration handler: when time runs out nothing ends the "
                    + "task and iOS terminates the app.")
        }
        // A task kept in a local declared by the begin (`let id = app.beginBackgroundTask { self.start() }`): a call
        // in its handler back into the function that begins it begins and ends a task of its own, never this one.
        let restarting =
            Self.declaresLocal(beginAt: token, in: file)
            ? project.call(file: fileIndex, token: token).map { CallableID(file: Int32(fileIndex), index: $0.caller) }
            : nil
        if expiration != nil, endedByNextStatement(token, end: end, in: file) {
            // Ended before its expiration handler could run: what the handler does never matters.
        } else if let open = expiration,
            !closureEndsTask(file, open: open, fileIndex: fileIndex, restarting: restarting),
            !endsThroughObserver(file, closure: open)
        {
            report(
                "The expiration handler of this background task does not call endBackgroundTask(_:); "
                    + "when time runs out, iOS terminates the app.")
        } else if let open = expiration,
            !closureEndsTask(file, open: open, fileIndex: fileIndex, beforeReturning: true),
            !endsThroughObserver(file, closure: open)
        {
            report(
                "The expiration handler of this background task ends it only in code dispatched to run "
                    + "later, after the handler has returned; it must end the task before returning, or iOS "
                    + "terminates the app.")
        }
        if let open = expiration, let exit = weakSelfExit(ofHandlerAt: open, in: file),
            !deinitEndsTask(around: token, in: file, fileIndex: fileIndex)
        {
            report(
                "The expiration handler returns at line \(file.line(exit)) without ending the task when its weakly "
                    + "captured `self` is gone; then nothing ends it and iOS terminates the app.")
        }
        checkIdentifier(
            token, end: end, expiration: expiration, in: file, fileIndex: fileIndex, ended: ended, paths: paths,
            into: &findings)
    }

    /// The `return` of a `guard let self … else { return }` (or `guard let strongSelf = self`) at the top level of
    /// the expiration handler opened at `open`, before the handler ends the task: taken when the weakly captured
    /// object is gone, it leaves the task unended.
    private func weakSelfExit(ofHandlerAt open: Int, in file: SourceFile) -> Int? {
        let close = Int(file.matching[open])
        guard close > open else { return nil }
        let own = Int(file.scopeOf[open])
        var token = open + 1
        while token < close {
            if file.is(token, "endBackgroundTask") { return nil }
            if file.word(token) == .guard, Int(file.scopeOf[token]) == own {
                var cursor = token + 1
                while cursor < close, file.word(cursor) != .else { cursor += 1 }
                // `let self`, `let strongSelf = self`, `let id = self?.taskID`: taken when the weakly captured object
                // is gone; not a value read from an object held strongly (`let id = self.state`).
                guard Self.bindsSelf(token + 1..<cursor, in: file), file.isPunct(cursor + 1, ASCII.openBrace) else {
                    token = cursor
                    continue
                }
                let elseClose = Int(file.matching[cursor + 1])
                guard elseClose > cursor + 1 else { return nil }
                let body = cursor + 2..<elseClose
                if !body.contains(where: { file.is($0, "endBackgroundTask") }),
                    let exit = body.first(where: { file.word($0) == .return })
                {
                    return exit
                }
                token = elseClose
            }
            token += 1
        }
        return nil
    }

    /// Whether the exit at `token` is taken only once a weakly captured `self` is gone: a `return` in the `else` of a
    /// `guard` that binds it (`guard let self = self, …`, `guard let strongSelf = self`), or an `if` that binds it and
    /// has no `else` (the path that skips its block).
    private func leavesWhenSelfIsGone(_ token: Int, in file: SourceFile) -> Bool {
        if file.word(token) == .if {
            // `if let self { … }` with no `else`: the path that skips the block.
            guard
                let open = (token + 1..<min(file.count, token + 48)).first(where: { file.isPunct($0, ASCII.openBrace) })
            else { return false }
            return Self.bindsSelf(token + 1..<open, in: file)
        }
        guard file.word(token) == .return else { return false }
        let block = file.scopes[Int(file.scopeOf[token])]
        let open = Int(block.open)
        guard open > 0, file.word(open - 1) == .else else { return false }
        // Back over the condition to its `guard`, stepping over bracketed groups, stopping at the statement before.
        var cursor = open - 2
        while cursor > max(0, open - 96) {
            if file.word(cursor) == .guard { return Self.bindsSelf(cursor + 1..<open - 1, in: file) }
            if file.isPunct(cursor, ASCII.closeParen) || file.isPunct(cursor, ASCII.closeBracket)
                || file.isPunct(cursor, ASCII.closeBrace)
            {
                // A closure in the condition is stepped over; a block that ends the statement before is the limit.
                let opener = Int(file.matching[cursor])
                guard opener >= 0, opener < cursor,
                    !(file.isPunct(cursor, ASCII.closeBrace) && file.startsStatement(cursor + 1))
                else { return false }
                cursor = opener - 1
                continue
            }
            if file.isPunct(cursor, ASCII.openBrace) || file.isPunct(cursor, ASCII.semicolon) { return false }
            cursor -= 1
        }
        return false
    }

    /// Whether the block the `return` at `token` leaves from calls, before it, a project function among `reaching`
    /// (one that calls an end of the task, itself or further down: `stop(); return`).
    private func endsBeforeLeaving(_ token: Int, in file: SourceFile, fileIndex: Int, through reaching: Set<CallableID>)
        -> Bool
    {
        guard file.word(token) == .return else { return false }
        let open = Int(file.scopes[Int(file.scopeOf[token])].open)
        guard open >= 0, open < token else { return false }
        return (open + 1..<token).contains { call in
            guard file.isIdentifier(call), file.word(call) == .none, file.isPunct(call + 1, ASCII.openParen) else {
                return false
            }
            let resolved = project.resolved(
                file: fileIndex, token: call, name: file.text(call), labels: file.labels(ofCallAt: call + 1))
            return resolved.contains(where: reaching.contains)
        }
    }

    /// The flags set to `true` by functions that call one of `enders` (`cancel()`: `isCancelled = true`, then
    /// `endBackgroundTask()`): a path that leaves on one was ended by whoever set it.
    private static func marksSetByEnders(_ enders: Set<CallableID>, in project: Project) -> Set<String> {
        let index = project.index
        let names = Set(enders.map { index.callable($0).name })
        var marks: Set<String> = []
        for ender in enders {
            for call in index.callers(of: ender) {
                let caller = index.caller(of: call)
                let file = project.file(Int(caller.file))
                let open = Int(index.callable(caller).open)
                guard open >= 0, !names.contains(index.callable(caller).name) else { continue }
                let close = Int(file.matching[open])
                for token in open..<max(open, close)
                where file.isIdentifier(token) && file.isPunct(token + 1, ASCII.equals) && file.word(token + 2) == .true
                {
                    marks.insert(file.text(token))
                }
            }
        }
        return marks
    }

    /// Whether the condition in `range` binds a weakly captured `self` or reads through it (`let self`, `let strongSelf =
    /// self`, `let id = self?.taskID`), not a member of an object held strongly (`self.state`).
    private static func bindsSelf(_ range: Range<Int>, in file: SourceFile) -> Bool {
        range.contains { index in
            file.word(index) == .`self` && !file.isPunct(index + 1, ASCII.dot)
                && (file.word(index - 1) == .let || file.word(index - 1) == .var
                    || file.isPunct(index - 1, ASCII.equals))
        }
    }

    /// Whether the type whose code begins the task at `token` ends a task in its `deinit` (itself, or through a
    /// project function it calls): when a weakly captured instance is gone, its `deinit` has run and ended the task.
    private func deinitEndsTask(around token: Int, in file: SourceFile, fileIndex: Int) -> Bool {
        guard let callable = file.callable(containing: token), let type = file.enclosingType(ofScope: callable)
        else { return false }
        return file.scopes.contains { scope in
            guard Int(scope.parent) == type, scope.head >= 0, file.word(Int(scope.head)) == .deinit, scope.open >= 0
            else { return false }
            return mayEndTask(
                in: file, fileIndex: fileIndex, from: Int(scope.open) + 1, to: min(Int(scope.close), file.count))
        }
    }

    private func checkIdentifier(
        _ token: Int, end: Int, expiration: Int?, in file: SourceFile, fileIndex: Int, ended: Ends,
        paths: CompletionPaths, into findings: inout [Finding]
    ) {
        let location = file.location(token)
        var start = token
        // The receiver, back to its first name: a call in it (Swift 2's `UIApplication.sharedApplication()`) is
        // stepped over whole.
        while file.isPunct(start - 1, ASCII.dot) {
            var name = start - 2
            if file.isPunct(name, ASCII.closeParen) || file.isPunct(name, ASCII.closeBracket) {
                // A call or a subscript (`services[.context].beginBackgroundTask`).
                let open = Int(file.matching[name])
                guard open >= 0, open < name else { break }
                name = open - 1
            }
            guard file.isIdentifier(name) else { break }
            start = name
        }
        var previous = start - 1
        while file.word(previous) == .await || file.word(previous) == .try { previous -= 1 }
        if file.word(previous) == .return || file.isPunct(previous, ASCII.openParen)
            || file.isPunct(previous, ASCII.comma) || file.isPunct(previous, ASCII.colon)
            || (file.isPunct(previous, ASCII.openBrace) && file.scopes[Int(file.scopeOf[previous])].isCallable)
            || (file.isPunct(previous, ASCII.openBrace) && file.scopes[Int(file.scopeOf[previous])].kind == .closure
                && Int(file.matching[previous]) == end)
            || (file.word(previous) == .in && file.scopes[Int(file.scopeOf[token])].kind == .closure
                && Int(file.scopes[Int(file.scopeOf[token])].close) == end)
        {
            // (A one-expression function or closure body, `{ handler in app.beginBackgroundTask(…) }` too, returns the
            // identifier, as `return` does.)
            // Handed to a caller or another function, which owns ending it.
            return
        }
        if file.isPunct(previous, ASCII.equals), file.isPunct(previous - 1, ASCII.closeBracket) {
            // Kept in a collection (`tasks[name] = …`): whoever reads it back ends it, which is not followed.
            return
        }
        if file.isPunct(previous, ASCII.equals), let declared = file.declaredName(assignedBy: previous) {
            // `let taskID: UIBackgroundTaskIdentifier = …`: the name, not its type, holds the identifier; from here
            // `previous` is the token after the name (its `:` or `=`).
            previous = declared + 1
        }
        guard file.isPunct(previous, ASCII.equals) || file.isPunct(previous, ASCII.colon),
            file.isIdentifier(previous - 1),
            !file.is(previous - 1, "_")
        else {
            findings.append(
                Finding(
                    rule: .unpairedBeginBackgroundTask, at: location,
                    message: "The identifier beginBackgroundTask returns is dropped, so endBackgroundTask(_:) "
                        + "can never be called for it."))
            return
        }
        let name = file.text(previous - 1)
        guard let body = file.enclosingBody(of: token) else { return }
        if let expiration, let reset = resetBeforeEnding(name, closure: expiration, in: file) {
            findings.append(
                Finding(
                    rule: .unpairedBeginBackgroundTask, at: location,
                    message: "The expiration handler sets `\(name)` to `.invalid` at line \(file.line(reset)) before "
                        + "ending it, so endBackgroundTask(_:) is given `.invalid` and the task is never ended; iOS "
                        + "terminates the app."))
        }
        var expirationEndsOnly = false
        if let expiration {
            expirationEndsOnly = endsWithoutReset(name, closure: expiration, in: file, fileIndex: fileIndex)
        }
        let endedTwice = Finding(
            rule: .unpairedBeginBackgroundTask, at: location,
            message: "`\(name)` is ended by the expiration handler, which never sets it to `.invalid`, and ended again "
                + "on the normal path: when time runs out the task is ended twice, the second time one that is over.")
        // A local of the function around (a closure's captured `var taskID`) lives and dies like one of the body.
        let function = file.callable(containing: token).map { (Int(file.scopes[$0].open), Int(file.scopes[$0].close)) }
        if !isLocal(name, declaredIn: body, file: file), !isLocal(name, declaredIn: function ?? body, file: file) {
            if file.word(end) == .return, file.isIdentifier(end + 1), file.text(end + 1) == name,
                file.isPunct(end + 2, ASCII.closeBrace) || file.startsStatement(end + 2)
            {
                // A closure's `inout` parameter given the task and returned at once (`holder.write { ward in ward =
                // app.beginBackgroundTask(…); return ward }`): handed to the caller, as a `return` of the call is.
                return
            }
            let beginner = project.call(file: fileIndex, token: token).map {
                CallableID(file: Int32(fileIndex), index: $0.caller)
            }
            let endedIn = ended.endedIn
            let ended = beginner.map { ended.counting(for: $0, in: project.index) } ?? ended.anywhere
            if expirationEndsOnly, ended.contains(name),
                !endedWhileMainIsBusy(name, begunAt: token, from: end, in: file, fileIndex: fileIndex)
            {
                findings.append(endedTwice)
            }
            if let drop = droppedWithoutEnding(name, in: file, fileIndex: fileIndex, expiration: expiration) {
                findings.append(
                    Finding(
                        rule: .unpairedBeginBackgroundTask, at: location,
                        message: "`\(name)` is set to `.invalid` at line \(drop) by code that does not end the task it "
                            + "holds; that task is dropped, and neither the expiration handler nor a later end, which "
                            + "read `\(name)`, can end it."))
            }
            if let call = project.call(file: fileIndex, token: token),
                call.onStateChange
                    || project.index.runsOnEachEvent(CallableID(file: Int32(fileIndex), index: call.caller)),
                !endsOrChecks(name, in: file, fileIndex: fileIndex, from: body.open + 1, to: previous - 1),
                !callersCheck(name, CallableID(file: Int32(fileIndex), index: call.caller)),
                !endedOnReturn(name, begunIn: CallableID(file: Int32(fileIndex), index: call.caller)),
                !begunOnNewInstances(CallableID(file: Int32(fileIndex), index: call.caller)),
                !endedAtOnceByDispatch(name, in: file, from: end, to: body.close),
                !endedLaterInBody(name, begunAt: token, in: file, from: end, to: body.close)
            {
                findings.append(
                    Finding(
                        rule: .unpairedBeginBackgroundTask, at: location,
                        message: "`\(name)` is given a new background task each time the app changes state or "
                            + "the system calls back, without ending or checking the one it holds; the earlier task "
                            + "is never ended."))
            } else if !ended.contains(name) {
                findings.append(
                    Finding(
                        rule: .unpairedBeginBackgroundTask, at: location,
                        message: "Nothing calls endBackgroundTask(_:) with `\(name)` outside its expiration "
                            + "handler, so the background task is never ended on the normal path."))
            } else if let beginner, let function, endedIn[name] == [beginner],
                function.0 == body.open || endsOnlyWithin(body, name, function: function, expiration, in: file)
            {
                // The function that begins the task is the only one that ends it on the normal path
                // (`saving = app.beginBackgroundTask { … }`, work, `app.endBackgroundTask(saving)`), or the closure
                // it begins it in is (`queue.async { id = app.beginBackgroundTask { … }; …; app.endBackgroundTask(id)
                // }`): as for a local, each path from the begin to the end of that body must end it, or nothing will.
                let outcome = paths.analyzeRange(
                    file: fileIndex, from: end, to: body.close, origin: token, aliases: [name])
                if !outcome.mentions, function.0 == body.open, endingClosures(of: name, in: body, file: file).isEmpty {
                    // Its only end is the one before the begin, of the task held from the call before (`if id !=
                    // .invalid { end(id) }; id = begin…`), and no local closure ends it later: a keep-alive no work
                    // ends.
                    findings.append(
                        Finding(
                            rule: .unpairedBeginBackgroundTask, at: location,
                            message: "`\(name)` is ended only before the next begin and by the expiration handler: no "
                                + "work ends the task, so the app holds it until it is called again or until its "
                                + "time runs out."))
                    return
                }
                let marks = expiration.map { CompletionPaths.expirationMarks(ofHandlerAt: $0, in: file) } ?? []
                report(outcome.leaks, of: name, in: fileIndex, unlessCancelled: expirationEndsOnly, marks, &findings)
            } else if let beginner, function?.0 == body.open, let enders = endedIn[name], !enders.contains(beginner),
                let leak = callerLeaks(begunBy: beginner, endedBy: enders, name, paths: paths)
            {
                findings.append(
                    Finding(
                        rule: .unpairedBeginBackgroundTask, at: location,
                        message: "`\(leak.caller)` calls `\(leak.beginner)`, which begins the background task "
                            + "`\(name)`, and then `\(leak.ender)` to end it, but leaves at line \(leak.line) "
                            + "without the end: the task stays open until it expires."))
            }
            return
        }
        // Begun in a closure given to a queue (`DispatchQueue.main.sync { id = … }`, or `.async`) into a variable of the
        // function around it: the paths go on after the closure, in that function. Run at once, the begin precedes the
        // rest; run later, the function has meanwhile arranged the end (a local closure its callbacks call), which
        // reads the variable when it runs.
        var rangeEnd = body.close
        var endersScope = body
        if let function, function.0 != body.open, !isLocal(name, declaredIn: body, file: file),
            let closure = Optional(Int(file.scopeOf[token])), file.scopes[closure].kind == .closure,
            file.scopes[closure].name >= 0, Self.queueCalls.contains(file.text(Int(file.scopes[closure].name)))
        {
            rangeEnd = function.1
            endersScope = function
        }
        let enders = endingClosures(of: name, in: endersScope, file: file)
        let outcome = paths.analyzeRange(
            file: fileIndex, from: end, to: rangeEnd, origin: token, aliases: Set([name] + enders))
        guard outcome.mentions else {
            let endedAtExpiry = expiration.map { closureEndsTask(file, open: $0, fileIndex: fileIndex) } ?? false
            findings.append(
                Finding(
                    rule: .unpairedBeginBackgroundTask, at: location,
                    message: endedAtExpiry
                        ? "`\(name)` is ended only by the expiration handler: nothing ends the task when the work is "
                            + "done, so the app holds it, and keeps running in the background, until its time runs out."
                        : "`\(name)` is never passed to endBackgroundTask(_:) after the task begins, so it runs until "
                            + "iOS terminates the app."))
            return
        }
        // The expiration handler marks that it has run (it cancels the operation, sets a flag) and the normal path
        // tests the mark: the handler has ended the task on the path that leaves on it, and the other ends it once.
        let marks = expiration.map { CompletionPaths.expirationMarks(ofHandlerAt: $0, in: file) } ?? []
        if expirationEndsOnly, !testsMark(marks, beforeEnding: name, in: file, end..<rangeEnd),
            !(returns(name, in: file, end..<rangeEnd) && !hasCallers(begunAt: token, fileIndex: fileIndex)),
            !outcome.endsProcess || mentionsEnd(of: [name] + enders, in: file, end..<rangeEnd),
            !endedWhileMainIsBusy(name, begunAt: token, from: end, in: file, fileIndex: fileIndex)
        {
            findings.append(endedTwice)
        }
        report(outcome.leaks, of: name, in: fileIndex, unlessCancelled: expirationEndsOnly, marks, &findings)
    }

    /// Whether `body` is a closure given to a queue (`queue.async { … }`) and every `endBackgroundTask(_:)` of `name`
    /// in `function` outside the expiration handler (whose `{` is at `expiration`) is inside it, and one is: that
    /// closure is where the task is ended.
    private func endsOnlyWithin(
        _ body: (open: Int, close: Int), _ name: String, function: (Int, Int), _ expiration: Int?, in file: SourceFile
    ) -> Bool {
        // A closure given to a queue runs once; a callback's (a method channel's handler) may begin the task on one
        // call and end it on another.
        let closure = Int(file.scopeOf[body.open + 1])
        guard file.scopes[closure].kind == .closure, file.scopes[closure].name >= 0,
            Self.queueCalls.contains(file.text(Int(file.scopes[closure].name)))
        else { return false }
        let handler = expiration.map { $0..<max($0, Int(file.matching[$0])) } ?? 0..<0
        var inside = false
        for token in function.0..<function.1
        where file.is(token, "endBackgroundTask") && file.isPunct(token + 1, ASCII.openParen)
            && !handler.contains(token)
        {
            let close = Int(file.matching[token + 1])
            guard close > token, (token + 2..<close).contains(where: { file.isIdentifier($0) && file.text($0) == name })
            else { continue }
            guard body.open < token, token < body.close else { return false }
            inside = true
        }
        return inside
    }

    /// Where a caller of `beginner` (a function that begins the task `name` into a property and nothing else ends)
    /// calls one of `enders` after it, in the same body, but leaves on some path without that call: the helper pair
    /// (`beginBackgroundTask()`, work, `endBackgroundTask()`) left open by an early `return`.
    private func callerLeaks(
        begunBy beginner: CallableID, endedBy enders: Set<CallableID>, _ name: String, paths: CompletionPaths
    ) -> (
        caller: String, beginner: String, ender: String, line: Int
    )? {
        let index = project.index
        let enderNames = Set(enders.map { index.callable($0).name })
        // What the exits are weighed against, worked out once, and only for a caller that does end the task.
        var ends: (marks: Set<String>, reaching: Set<CallableID>)?
        for call in index.callers(of: beginner) {
            let caller = index.caller(of: call)
            guard !enders.contains(caller), index.callable(caller).kind == .function else { continue }
            let file = project.file(Int(caller.file))
            let open = Int(index.callable(caller).open)
            let token = Int(index.call(call).token)
            guard open >= 0, file.isPunct(token + 1, ASCII.openParen), file.scopeOf[token] == file.scopeOf[open + 1]
            else { continue }
            let close = Int(file.matching[open])
            let after = Int(file.matching[token + 1]) + 1
            guard close > after,
                let ender = (after..<close).first(where: {
                    file.isIdentifier($0) && enderNames.contains(file.text($0)) && file.isPunct($0 + 1, ASCII.openParen)
                        && (!file.isPunct($0 - 1, ASCII.dot) || file.word($0 - 2) == .self)
                })
            else { continue }
            let outcome = paths.analyzeRange(
                file: Int(caller.file), from: after, to: close, origin: token, aliases: enderNames.union([name]))
            let beginFile = project.file(Int(beginner.file))
            let begin = Int(index.callable(beginner).open)
            let (marks, reaching) =
                ends ?? (Self.marksSetByEnders(enders, in: project), index.withCallers(Array(enders)))
            ends = (marks, reaching)
            let leaks = outcome.leaks.filter { leak in
                let exit = Int(leak.token)
                guard Int(leak.file) == Int(caller.file), exit != token else { return false }
                // `stop(); return`, where `stop()` ends the task; the `else` of `guard let self`, whose `deinit` has
                // ended it; `guard !isCancelled else { return }`, the flag set by a `cancel()` that ends it.
                return !endsBeforeLeaving(exit, in: file, fileIndex: Int(caller.file), through: reaching)
                    && !(leavesWhenSelfIsGone(exit, in: file)
                        && deinitEndsTask(around: begin + 1, in: beginFile, fileIndex: Int(beginner.file)))
                    && !HandlerCheck.leavesWhenCancelled(file, exit, marks: marks)
            }
            guard let leak = leaks.min(by: { $0.token < $1.token }) else { continue }
            return (
                index.callable(caller).name, index.callable(beginner).name, file.text(ender), file.line(Int(leak.token))
            )
        }
        return nil
    }

    /// Whether tokens in `range` return `name` (or its `rawValue`): the caller keeps the identifier and owes its end.
    /// Where no code calls the function, no caller ends it a second time after the expiration handler has.
    private func returns(_ name: String, in file: SourceFile, _ range: Range<Int>) -> Bool {
        range.contains { token in
            guard file.word(token) == .return, file.isIdentifier(token + 1), file.text(token + 1) == name else {
                return false
            }
            let next = file.isPunct(token + 2, ASCII.dot) && file.is(token + 3, "rawValue") ? token + 4 : token + 2
            return file.isPunct(next, ASCII.closeBrace) || file.startsStatement(next)
        }
    }

    /// Whether any code calls the function the `beginBackgroundTask` call at `token` is in.
    private func hasCallers(begunAt token: Int, fileIndex: Int) -> Bool {
        guard let call = project.call(file: fileIndex, token: token) else { return true }
        return !project.index.callers(of: CallableID(file: Int32(fileIndex), index: call.caller)).isEmpty
    }

    /// Reports each path that leaves the task `name`, begun in file `fileIndex`, unended; where the expiration
    /// handler ends it (`unlessCancelled`), not a path that leaves on a mark that handler sets.
    private func report(
        _ leaks: [Site], of name: String, in fileIndex: Int, unlessCancelled: Bool, _ marks: Set<String>,
        _ findings: inout [Finding]
    ) {
        for leak in Set(leaks).sorted(by: { ($0.file, $0.token) < ($1.file, $1.token) }) {
            let leakFile = project.file(Int(leak.file))
            let token = Int(leak.token)
            if unlessCancelled, Int(leak.file) == fileIndex,
                HandlerCheck.leavesWhenCancelled(leakFile, token, marks: marks)
            {
                continue
            }
            if leavesWhenSelfIsGone(token, in: leakFile),
                deinitEndsTask(around: token, in: leakFile, fileIndex: Int(leak.file))
            {
                // `guard let self else { return }` in a callback: the object is gone, and its `deinit` ended the task.
                continue
            }
            let message = HandlerCheck.leakMessage(
                leakFile, token, owed: "endBackgroundTask(_:)", what: "the background task `\(name)`")
            findings.append(Finding(rule: .unpairedBeginBackgroundTask, at: leakFile.location(token), message: message))
        }
    }

    /// Whether tokens in `range` call `endBackgroundTask(_:)`, hand one of `names` whole to a call, or call one (a
    /// local closure that ends the task): the paths end the task itself, not only the process.
    private func mentionsEnd(of names: [String], in file: SourceFile, _ range: Range<Int>) -> Bool {
        range.contains { token in
            if file.is(token, "endBackgroundTask") { return true }
            guard file.isIdentifier(token), names.contains(file.text(token)) else { return false }
            let called = file.isPunct(token + 1, ASCII.openParen)
            let handedWhole =
                (file.isPunct(token - 1, ASCII.openParen) || file.isPunct(token - 1, ASCII.comma)
                    || file.isPunct(token - 1, ASCII.colon))
                && (file.isPunct(token + 1, ASCII.closeParen) || file.isPunct(token + 1, ASCII.comma))
            return called || handedWhole
        }
    }

    /// Whether the normal path, from `start` to `end`, tests one of the expiration handler's `marks` before its first
    /// end of `name` (`guard !self.isCancelled else { return }`): then only one of the two ends the task.
    private func testsMark(_ marks: Set<String>, beforeEnding name: String, in file: SourceFile, _ range: Range<Int>)
        -> Bool
    {
        guard !marks.isEmpty else { return false }
        var tested = false
        for token in range.lowerBound..<min(range.upperBound, file.count) {
            if file.word(token) == .guard || file.word(token) == .if {
                var cursor = token + 1
                while cursor < range.upperBound, !file.isPunct(cursor, ASCII.openBrace), file.word(cursor) != .else {
                    if file.isIdentifier(cursor), marks.contains(file.text(cursor)) { tested = true }
                    cursor += 1
                }
            }
            if file.is(token, "endBackgroundTask"), file.isPunct(token + 1, ASCII.openParen) {
                let argumentEnd = Int(file.matching[token + 1])
                let ends = ((token + 2)..<max(argumentEnd, token + 2)).contains {
                    file.isIdentifier($0) && file.text($0) == name
                }
                if ends { return tested }
            }
        }
        return false
    }

    /// Whether the expiration closure at `open` ends the task `name` holds — itself, or through a project function it
    /// passes `name` to — without ever setting `name` again (to `.invalid`), so a later end on the normal path ends
    /// it a second time. A closure that binds its own `name` in a capture list is not judged, and neither is one that
    /// removes an entry from where the task is kept (`tasks.removeValue(forKey: id)`), as a project function that
    /// does so records the end: the normal path reads the task back from there and finds it gone.
    private func endsWithoutReset(_ name: String, closure open: Int, in file: SourceFile, fileIndex: Int) -> Bool {
        let close = Int(file.matching[open])
        guard close > open else { return false }
        if file.isPunct(open + 1, ASCII.openBracket) {
            let captures = Int(file.matching[open + 1])
            for token in (open + 2)..<max(captures, open + 2) where file.isIdentifier(token) && file.text(token) == name
            {
                return false
            }
        }
        for token in (open + 1)..<close where file.isIdentifier(token) && file.isPunct(token - 1, ASCII.dot) {
            if file.text(token).hasPrefix("remove"), file.isPunct(token + 1, ASCII.openParen) { return false }
        }
        var ends = false
        for token in (open + 1)..<close where file.isIdentifier(token) && file.text(token) == name {
            // `name = .invalid` sets it back; `guard let name = name` only binds a copy.
            if file.isPunct(token + 1, ASCII.equals), !file.isPunct(token + 2, ASCII.equals),
                file.word(token - 1) != .let, file.word(token - 1) != .var
            {
                return false
            }
            guard let call = enclosingCall(of: token, in: file, after: open) else { continue }
            // A project function of that name (`endBackgroundTask(_ task: inout …)`) is judged by its body.
            if let callee = project.callee(
                file: fileIndex, token: call, name: file.text(call), labels: file.labels(ofCallAt: call + 1))
            {
                if mayEndTask(callee), !resetsTask(callee) { ends = true }
            } else if file.is(call, "endBackgroundTask") {
                ends = true
            }
        }
        return ends
    }

    /// Where the expiration closure at `open` sets `name` to `.invalid` when that is the first thing it does with it
    /// and an `endBackgroundTask` follows: the end is then given `.invalid`, and the task stays open.
    private func resetBeforeEnding(_ name: String, closure open: Int, in file: SourceFile) -> Int? {
        let close = Int(file.matching[open])
        guard close > open else { return nil }
        guard let first = ((open + 1)..<close).first(where: { file.isIdentifier($0) && file.text($0) == name }),
            file.isPunct(first + 1, ASCII.equals), file.isInvalidTaskIdentifier(at: first + 2)
        else { return nil }
        // The end is given the property itself (`endBackgroundTask(self.taskID)`), not a copy taken before the reset.
        let givesProperty = ((first + 2)..<close).contains { end in
            guard file.is(end, "endBackgroundTask"), file.isPunct(end + 1, ASCII.openParen) else { return false }
            let argumentsClose = Int(file.matching[end + 1])
            return argumentsClose > end + 1
                && (end + 2..<argumentsClose).contains { file.isIdentifier($0) && file.text($0) == name }
        }
        return givesProperty ? first : nil
    }

    /// The called name whose argument list holds `token` directly (`end(name)`, `helper(token: name)`).
    private func enclosingCall(of token: Int, in file: SourceFile, after limit: Int) -> Int? {
        var cursor = token - 1
        var depth = 0
        while cursor > limit {
            if file.isPunct(cursor, ASCII.closeParen) || file.isPunct(cursor, ASCII.closeBracket) { depth += 1 }
            if file.isPunct(cursor, ASCII.openParen) || file.isPunct(cursor, ASCII.openBracket) {
                if depth == 0 {
                    return file.isPunct(cursor, ASCII.openParen) && file.isIdentifier(cursor - 1) ? cursor - 1 : nil
                }
                depth -= 1
            }
            if file.isPunct(cursor, ASCII.openBrace) || file.isPunct(cursor, ASCII.closeBrace)
                || file.isPunct(cursor, ASCII.semicolon) || file.startsStatement(cursor)
            {
                return nil
            }
            cursor -= 1
        }
        return nil
    }

    /// Whether a project function records that the task has ended, so that ending through it twice is caught: it
    /// assigns something (`task = .invalid`) or removes the task from where it keeps it (`open.remove(task)`).
    private func resetsTask(_ callee: CallableID) -> Bool {
        let info = project.index.callable(callee)
        let file = project.file(Int(callee.file))
        let scope = file.scopes[Int(info.scope)]
        for token in max(Int(scope.open), 0)..<min(Int(scope.close), file.count) {
            if file.is(token, "invalid") || file.is(token, "UIBackgroundTaskInvalid") { return true }
            if file.isAssignment(token), file.word(token - 2) != .let, file.word(token - 2) != .var {
                // An assignment records something; a `let` binding (`guard let task = token as? …`) does not.
                return true
            }
            if file.isIdentifier(token), file.text(token).hasPrefix("remove"), file.isPunct(token + 1, ASCII.openParen)
            {
                return true
            }
        }
        return false
    }

    /// The closure a local `let` of the body binds the expiration handler to, written at its declaration:
    /// `let expire = { … }`, `let expire: @Sendable () -> Void = { … }`, or `let expire = flag ? { … } : nil`, whose
    /// `nil` begins the task with no handler at all (`orNil`).
    private func localHandler(named argument: Argument, before token: Int, in file: SourceFile)
        -> (open: Int, orNil: Bool)?
    {
        guard argument.end == argument.start + 1, file.isIdentifier(argument.start) else { return nil }
        for equals in file.localBindings(named: file.text(argument.start), before: token) {
            if file.isPunct(equals + 1, ASCII.openBrace) { return (equals + 1, false) }
            // `condition ? { … } : nil` (or the other way round), the value ending where the next statement starts.
            var cursor = equals + 1
            var question = -1
            while cursor < token, !file.startsStatement(cursor) || cursor == equals + 1 {
                if file.isPunct(cursor, ASCII.question), question < 0, !file.isPunct(cursor + 1, ASCII.dot) {
                    question = cursor
                }
                if file.matching[cursor] > cursor, !file.isPunct(cursor, ASCII.openBrace) {
                    cursor = Int(file.matching[cursor])
                }
                cursor += 1
                if question >= 0 { break }
            }
            guard question >= 0 else { continue }
            let first = question + 1
            if file.isPunct(first, ASCII.openBrace) {
                let close = Int(file.matching[first])
                guard close > first, file.isPunct(close + 1, ASCII.colon) || file.word(close + 1) == .as else {
                    continue
                }
                var colon = close + 1
                while colon < token, !file.isPunct(colon, ASCII.colon), file.line(colon) <= file.line(close) + 1 {
                    colon += 1
                }
                return (first, file.word(colon + 1) == .nil)
            }
            if file.word(first) == .nil, file.isPunct(first + 1, ASCII.colon), file.isPunct(first + 2, ASCII.openBrace)
            {
                return (first + 2, true)
            }
        }
        return nil
    }

    /// Local closures of the body that end the task `name` holds (`let finish = { app.endBackgroundTask(id) }`):
    /// calling one ends the task; returning or passing one on hands the ending to whoever calls it, as handing on
    /// `name` itself would.
    private func endingClosures(of name: String, in body: (open: Int, close: Int), file: SourceFile) -> [String] {
        var names: [String] = []
        for open in (body.open + 1)..<body.close where file.isPunct(open, ASCII.openBrace) {
            guard let declared = file.declaredName(ofClosureAt: open) else { continue }
            let close = Int(file.matching[open])
            guard close > open else { continue }
            for token in (open + 1)..<close where file.is(token, "endBackgroundTask") {
                let arguments = file.isPunct(token + 1, ASCII.openParen) ? file.arguments(ofCallAt: token + 1) : []
                // `endBackgroundTask(id)`, or of a property (`endBackgroundTask(self.id)`).
                if arguments.contains(where: { argument in
                    (argument.start..<argument.end).contains { file.isIdentifier($0) && file.text($0) == name }
                }) {
                    names.append(file.text(declared))
                    break
                }
            }
        }
        return names
    }

    /// Whether every call of `callable` made on a change of app state looks at the task `name` holds before it
    /// (`if task == .invalid { begin() }`), so on that way the function that begins a task is only reached when none
    /// is held.
    private func callersCheck(_ name: String, _ callable: CallableID) -> Bool {
        let index = project.index
        let callers = index.callers(of: callable).filter { index.isRecurring($0) }
        guard !callers.isEmpty else { return false }
        return callers.allSatisfy { id in
            let call = index.call(id)
            let fileIndex = Int(id.file)
            let file = project.file(fileIndex)
            let token = Int(call.token)
            guard let body = file.enclosingBody(of: token) else { return false }
            return endsOrChecks(name, in: file, fileIndex: fileIndex, from: body.open + 1, to: token)
        }
    }

    /// Whether every call of `callable`, a method, is made on an instance its caller has just made of the method's
    /// type (`let keeper = Keeper(…)` and then `keeper.begin()`): each change of state then begins the task on a new
    /// object, whose property holds no earlier task to overwrite.
    private func begunOnNewInstances(_ callable: CallableID) -> Bool {
        let index = project.index
        guard let typeName = index.callable(callable).typeName else { return false }
        let callers = index.callers(of: callable)
        guard !callers.isEmpty else { return false }
        return callers.allSatisfy { id in
            let call = index.call(id)
            let file = project.file(Int(id.file))
            let token = Int(call.token)
            guard file.isPunct(token - 1, ASCII.dot), file.isIdentifier(token - 2), !file.isPunct(token - 3, ASCII.dot),
                let body = file.enclosingBody(of: token)
            else { return false }
            let instance = file.text(token - 2)
            for binding in (body.open + 1)..<(token - 2)
            where (file.word(binding) == .let || file.word(binding) == .var) && file.text(binding + 1) == instance
                && file.isPunct(binding + 2, ASCII.equals) && file.text(binding + 3) == typeName
                && file.isPunct(binding + 4, ASCII.openParen)
            {
                return true
            }
            return false
        }
    }

    /// Whether the body that begins the task into `name` also dispatches a block whose first statement ends it
    /// (`DispatchQueue.global().async { app.endBackgroundTask(self.task) … }`): the task ends as soon as the queue
    /// runs the block, with no work before it, so none is held when the app changes state again. A block that first
    /// does work, or a callback the work calls, may not have run by then.
    private func endedAtOnceByDispatch(_ name: String, in file: SourceFile, from start: Int, to end: Int) -> Bool {
        for scope in file.scopes where scope.kind == .closure && Int(scope.open) > start && Int(scope.close) < end {
            let call = Int(scope.name)
            guard call > 0, file.is(call, "async"), file.isPunct(call - 1, ASCII.dot) else { continue }
            var first = Int(scope.open) + 1
            if file.isPunct(first, ASCII.openBracket) { first = Int(file.matching[first]) + 1 }
            if file.word(first) == .in { first += 1 }
            var cursor = first
            while file.isIdentifier(cursor) || file.word(cursor) == .self, file.isPunct(cursor + 1, ASCII.dot) {
                cursor += 2
            }
            guard file.is(cursor, "endBackgroundTask"), file.isPunct(cursor + 1, ASCII.openParen) else { continue }
            let close = Int(file.matching[cursor + 1])
            let argument = (cursor + 2)..<max(close, cursor + 2)
            if argument.contains(where: { file.isIdentifier($0) && file.text($0) == name }) { return true }
        }
        return false
    }

    /// Whether the body that begins the task into `name` ends it itself further on, at its own level (not in a closure
    /// or branch), with the property or a copy bound from it (`guard let id = self?.task else { return };
    /// app.endBackgroundTask(id)`): each run ends its task before it returns, so the next run, on the same thread or
    /// serial queue, finds none held.
    private func endedLaterInBody(_ name: String, begunAt token: Int, in file: SourceFile, from start: Int, to end: Int)
        -> Bool
    {
        let level = file.scopeOf[token]
        for call in start..<min(end, file.count)
        where file.scopeOf[call] == level && file.is(call, "endBackgroundTask")
            && file.isPunct(call + 1, ASCII.openParen)
        {
            let close = Int(file.matching[call + 1])
            for argument in (call + 2)..<max(close, call + 2) where file.isIdentifier(argument) {
                let text = file.text(argument)
                if text == name { return true }
                // A copy: `let id = …name…` or `guard let id = …name…` before the end, in the same body.
                for equals in file.localBindings(named: text, before: call) where equals > token {
                    let valueEnd = file.expressionEnd(from: equals + 1, limit: call)
                    if (equals + 1..<valueEnd).contains(where: { file.isIdentifier($0) && file.text($0) == name }) {
                        return true
                    }
                }
            }
        }
        return false
    }

    /// The line where the property `name` is set to `.invalid` (`backgroundTask = .invalid` when the work runs out)
    /// by a block, outside an initialiser and the expiration handler at `expiration`, that neither ends a background task
    /// nor calls a project function that may: whatever task the property held is dropped. A reset in the block that
    /// ends the task (`let id = task; task = .invalid; app.endBackgroundTask(id)`), or in a `defer` of it, or one its
    /// function follows with an end, is no drop.
    private func droppedWithoutEnding(_ name: String, in file: SourceFile, fileIndex: Int, expiration: Int?) -> Int? {
        let skipped = expiration.map { $0..<(Int(file.matching[$0]) + 1) } ?? 0..<0
        for token in 0..<file.count
        where file.isIdentifier(token) && file.text(token) == name && file.isPunct(token + 1, ASCII.equals)
            && !skipped.contains(token) && file.isInvalidTaskIdentifier(at: token + 2)
        {
            if file.isPunct(token - 1, ASCII.dot), file.word(token - 2) != .`self` { continue }
            if file.word(token - 1) == .var || file.word(token - 1) == .let { continue }
            guard let callable = file.callable(containing: token) else { continue }
            let function = file.scopes[callable]
            guard function.head >= 0, file.word(Int(function.head)) != .`init` else { continue }
            // The block the reset is a statement of (a `defer`'s is the block around it, whose end runs first).
            var block = Int(file.scopeOf[token])
            while file.scopes[block].kind == .control, file.scopes[block].control == .`defer` {
                block = Int(file.scopes[block].parent)
            }
            let open = max(Int(file.scopes[block].open), 0)
            let close = min(Int(file.scopes[block].close), file.count)
            // Or after it, out of the branch it is made in (`if id != .invalid { old = id; id = .invalid }`, then a
            // new begin, then `endBackgroundTask(old)`).
            let functionClose = min(Int(function.close), file.count)
            if !mayEndTask(in: file, fileIndex: fileIndex, from: open, to: close),
                !mayEndTask(in: file, fileIndex: fileIndex, from: close, to: functionClose)
            {
                return file.line(token)
            }
        }
        return nil
    }

    /// Whether tokens `start..<end` call `endBackgroundTask(_:)` or a project function that may end a task; with
    /// `beforeReturning`, leaving out code dispatched from the block opened at `start` to run later.
    private func mayEndTask(
        in file: SourceFile, fileIndex: Int, from start: Int, to end: Int, beforeReturning: Bool = false,
        restarting: CallableID? = nil, closureDepth: Int = 0
    ) -> Bool {
        for token in start..<end where file.isIdentifier(token) {
            if beforeReturning, runsLater(token, in: file, fileIndex: fileIndex, within: start) { continue }
            if isUIKitEnd(token, in: file, fileIndex: fileIndex) { return true }
            // A local closure of an enclosing body (`let endTask = { … endBackgroundTask(id) … }`), called here.
            if file.isPunct(token + 1, ASCII.openParen), file.word(token) == .none, !file.isPunct(token - 1, ASCII.dot),
                let closure = localClosure(named: file.text(token), calledAt: token, in: file),
                mayEndTask(
                    in: file, fileIndex: fileIndex, from: closure, to: Int(file.matching[closure]),
                    beforeReturning: beforeReturning, closureDepth: closureDepth)
            {
                return true
            }
            // Any of the project functions the call may reach (`self?.endTask()` with several `endTask`s about, or
            // the app's own `endBackgroundTask(_:)`).
            if file.isPunct(token + 1, ASCII.openParen), file.word(token) == .none,
                project.resolved(
                    file: fileIndex, token: token, name: file.text(token), labels: file.labels(ofCallAt: token + 1)
                ).contains(where: { $0 != restarting && mayEndTask($0, beforeReturning: beforeReturning) })
            {
                return true
            }
            // A property holding a closure the sources assign (`self.completion?(.failure(error))`, set elsewhere to
            // `{ result in … endBackgroundTask(self.taskID) … }`): calling it runs one of them.
            if closureDepth < 2, file.word(token) == .none,
                file.isPunct(token + 1, ASCII.openParen)
                    || file.isPunct(token + 1, ASCII.question) && file.isPunct(token + 2, ASCII.openParen),
                project.closuresAssigned(to: file.text(token)).contains(where: { site in
                    let body = project.file(Int(site.file))
                    let open = Int(site.token)
                    return mayEndTask(
                        in: body, fileIndex: Int(site.file), from: open, to: Int(body.matching[open]),
                        beforeReturning: beforeReturning, closureDepth: closureDepth + 1)
                })
            {
                return true
            }
        }
        return false
    }

    /// The `{` of the closure a local of `name` is declared with (`let name = { … }`) in a body around `token`, before
    /// it: the nearest such body first.
    private func localClosure(named name: String, calledAt token: Int, in file: SourceFile) -> Int? {
        var cursor = token
        while cursor > 0, let body = file.enclosingBody(of: cursor), body.open < cursor {
            if let equals = file.localBindings(named: name, before: cursor).last {
                let value = equals + 1
                return file.isPunct(value, ASCII.openBrace) && file.matching[value] > value ? value : nil
            }
            cursor = body.open - 1
        }
        return nil
    }

    /// Whether token `token` is UIKit's `endBackgroundTask(_:)`: not the app's own function of that name, called on
    /// `self` (or with no receiver) where the project declares one that fits, which is judged by its body (it may
    /// dispatch UIKit's end to a queue) as any other project function.
    private func isUIKitEnd(_ token: Int, in file: SourceFile, fileIndex: Int) -> Bool {
        guard file.is(token, "endBackgroundTask") else { return false }
        guard file.isPunct(token + 1, ASCII.openParen) else { return true }
        if file.isPunct(token - 1, ASCII.dot) {
            let receiver = file.isPunct(token - 2, ASCII.question) ? token - 3 : token - 2
            guard file.word(receiver) == .`self`, !file.isPunct(receiver - 1, ASCII.dot) else { return true }
        }
        return project.callee(
            file: fileIndex, token: token, name: "endBackgroundTask", labels: file.labels(ofCallAt: token + 1)) == nil
    }

    /// Calls that run the closure they are given once, before they return or on a queue soon after.
    private static let queueCalls: Set<String> = ["sync", "performAndWait", "autoreleasepool", "async", "asyncAfter"]

    private static let returnCallbacks: Set<String> = [
        "applicationWillEnterForeground", "sceneWillEnterForeground", "applicationDidBecomeActive",
        "sceneDidBecomeActive",
    ]
    private static let activeCallbacks: Set<String> = ["applicationDidBecomeActive", "sceneDidBecomeActive"]
    /// The callbacks for leaving, each with the callbacks for coming back that must run before it can run again: the
    /// app enters the background again only after it has come back to the foreground, and resigns active again only
    /// after it has become active (which entering the foreground alone does not promise).
    private static let leavingCallbacks: [String: Set<String>] = [
        "applicationDidEnterBackground": returnCallbacks, "sceneDidEnterBackground": returnCallbacks,
        "applicationWillResignActive": activeCallbacks, "sceneWillResignActive": activeCallbacks,
    ]

    /// Whether a task begun in the callback for entering the background (`sceneDidEnterBackground`) is ended by the
    /// same type's callback for coming back (`sceneWillEnterForeground`, `…DidBecomeActive`): the app comes back
    /// before it can enter the background again, so no task is held when the next one is begun (the same for one
    /// begun on resigning active and ended on becoming active). The begin may sit in a function that callback reaches
    /// (`startBackgroundTask()`, a keeper's `start()`, three calls down), when every call of it made on a change of app
    /// state comes from such a callback, and the end in a function the callback for coming back reaches
    /// (`keeper.end()`).
    private func endedOnReturn(_ name: String, begunIn callable: CallableID, depth: Int = 0) -> Bool {
        let info = project.index.callable(callable)
        let summary = project.summary(Int(callable.file))
        let returns =
            Self.leavingCallbacks[info.name]
            ?? (summary.backgroundSelectors.contains(info.name) ? Self.returnCallbacks : nil)
        guard let returns else {
            let index = project.index
            let recurring = index.callers(of: callable).filter { index.isRecurring($0) }
            guard depth < 3, !recurring.isEmpty else { return false }
            return recurring.allSatisfy { endedOnReturn(name, begunIn: index.caller(of: $0), depth: depth + 1) }
        }
        guard let typeName = info.typeName else { return false }
        let fileIndex = Int(callable.file)
        let file = project.file(fileIndex)
        for other in summary.callables
        where other.typeName == typeName && other.kind == .function
            && (returns.contains(other.name) || summary.returnSelectors.contains(other.name))
        {
            let scope = file.scopes[Int(other.scope)]
            let open = Int(scope.open)
            let close = min(Int(scope.close), file.count)
            guard open >= 0, close > open else { continue }
            for token in open..<close where file.isIdentifier(token) && file.isPunct(token + 1, ASCII.openParen) {
                if file.is(token, "endBackgroundTask"),
                    file.arguments(ofCallAt: token + 1).contains(where: { argument in
                        (argument.start..<argument.end).contains { file.isIdentifier($0) && file.text($0) == name }
                    })
                {
                    return true
                }
                if let callee = project.callee(
                    file: fileIndex, token: token, name: file.text(token), labels: file.labels(ofCallAt: token + 1)),
                    mayEndTask(callee)
                {
                    return true
                }
            }
        }
        return false
    }

    /// Whether tokens `start..<end`, before a new task is begun, look at the one `name` holds: mention `name` (a
    /// check, an `endBackgroundTask`), return early, or call a project function that ends a background task.
    private func endsOrChecks(_ name: String, in file: SourceFile, fileIndex: Int, from start: Int, to end: Int) -> Bool
    {
        guard start < end else { return false }
        for token in start..<end where file.isIdentifier(token) {
            // An early exit (`guard !isWaiting else { return }`) keeps a second task from starting; a `return` in a
            // closure the body makes (`locations.map { return … }`) leaves only that closure, and an end in one (a
            // timer's block) comes after the begin, not before it.
            if inNestedClosure(token, after: start, file) { continue }
            if file.text(token) == name { return true }
            if file.word(token) == .return { return true }
            if file.isPunct(token + 1, ASCII.openParen),
                let callee = project.callee(
                    file: fileIndex, token: token, name: file.text(token), labels: file.labels(ofCallAt: token + 1)),
                mayEndTask(callee)
            {
                return true
            }
        }
        return false
    }

    /// Whether `token` lies in a closure or function that opens at or after `start`.
    private func inNestedClosure(_ token: Int, after start: Int, _ file: SourceFile) -> Bool {
        var scope = Int(file.scopeOf[token])
        while scope > 0 {
            let current = file.scopes[scope]
            if Int(current.open) < start { return false }
            if current.isCallable || current.kind == .closure { return true }
            scope = Int(current.parent)
        }
        return false
    }

    private func isLocal(_ name: String, declaredIn body: (open: Int, close: Int), file: SourceFile) -> Bool {
        for token in body.open..<body.close where file.word(token) == .let || file.word(token) == .var {
            if file.isIdentifier(token + 1), file.text(token + 1) == name { return true }
        }
        return false
    }

    /// Whether the closure at `open` assigns a property of this file whose observer ends a background task
    /// (`self?.backgroundTask = nil`, where `var backgroundTask … { willSet { … endBackgroundTask(…) } }`): the
    /// assignment runs the observer, which ends the task before the closure returns.
    private func endsThroughObserver(_ file: SourceFile, closure open: Int) -> Bool {
        let close = Int(file.matching[open])
        guard close > open else { return false }
        var assigned: Set<String> = []
        for token in (open + 1)..<close
        where file.isIdentifier(token) && file.isPunct(token + 1, ASCII.equals)
            && !file.isPunct(token + 2, ASCII.equals)
            && !file.isPunct(token - 1, ASCII.equals)
        {
            assigned.insert(file.text(token))
        }
        return assigned.contains { name in
            file.observerBlocks(ofProperty: name).contains { block in
                block.contains { file.is($0, "endBackgroundTask") }
            }
        }
    }

    /// Whether the expiration closure at `open` ends the task, itself or through a project function (not
    /// `restarting`); with `beforeReturning`, only an end made before it returns counts, not one dispatched to run
    /// later.
    private func closureEndsTask(
        _ file: SourceFile, open: Int, fileIndex: Int, beforeReturning: Bool = false, restarting: CallableID? = nil
    ) -> Bool {
        let close = Int(file.matching[open])
        guard close > open else { return true }
        return mayEndTask(
            in: file, fileIndex: fileIndex, from: open, to: close, beforeReturning: beforeReturning,
            restarting: restarting)
    }

    /// Whether the begin at `token` is the value of a local it declares (`let id = UIApplication.shared.begin…`).
    private static func declaresLocal(beginAt token: Int, in file: SourceFile) -> Bool {
        var start = token
        while file.isPunct(start - 1, ASCII.dot), file.isIdentifier(start - 2) { start -= 2 }
        return file.isPunct(start - 1, ASCII.equals) && file.isIdentifier(start - 2)
            && (file.word(start - 3) == .let || file.word(start - 3) == .var)
    }

    /// Whether the function the expiration handler names (`expirationHandler: endTask`) ends the task. One the
    /// sources do not declare is taken to, unless it is a method of a local object (`expirationHandler: work.cancel`,
    /// `work` a `Task` the body made): code outside the sources never sees the identifier the begin returns.
    private func referenceEndsTask(_ file: SourceFile, _ argument: Argument, fileIndex: Int) -> Bool {
        var nameToken: Int?
        for token in argument.start..<argument.end where file.isIdentifier(token) && file.word(token) != .`self` {
            nameToken = token
        }
        guard let nameToken else { return true }
        guard let callee = project.callee(file: fileIndex, token: nameToken, name: file.text(nameToken), labels: [])
        else {
            let object = argument.start
            let isMemberOfLocal =
                nameToken == object + 2 && file.isPunct(object + 1, ASCII.dot) && file.word(object) == .none
                && file.enclosingBody(of: object).map { isLocal(file.text(object), declaredIn: $0, file: file) }
                    == true
            return !isMemberOfLocal
        }
        return mayEndTask(callee)
    }

    /// Whether project function `callee` ends a background task; `beforeReturning`, without dispatching the end to
    /// run later (in an expiration handler, that comes after the handler has returned).
    private func mayEndTask(_ callee: CallableID, beforeReturning: Bool = false, depth: Int = 0) -> Bool {
        let info = project.index.callable(callee)
        guard info.kind == .function || info.kind == .initializer || info.kind == .property else { return false }
        let file = project.file(Int(callee.file))
        let scope = file.scopes[Int(info.scope)]
        let open = max(Int(scope.open), 0)
        let close = min(Int(scope.close), file.count)
        for token in open..<close where isUIKitEnd(token, in: file, fileIndex: Int(callee.file)) {
            if !beforeReturning || !runsLater(token, in: file, fileIndex: Int(callee.file), within: open) {
                return true
            }
        }
        // Or through the project functions it calls, three calls deep (`didEnterSuspension()` → `cleanUp()` → end).
        guard depth < 2 else { return false }
        for token in open..<close
        where file.isIdentifier(token) && file.word(token) == .none && file.isPunct(token + 1, ASCII.openParen)
            && !(beforeReturning && runsLater(token, in: file, fileIndex: Int(callee.file), within: open))
        {
            let labels = file.labels(ofCallAt: token + 1)
            guard
                let next = project.callee(
                    file: Int(callee.file), token: token, name: file.text(token), labels: labels),
                next != callee
            else { continue }
            if mayEndTask(next, beforeReturning: beforeReturning, depth: depth + 1) { return true }
        }
        return false
    }

    /// Calls whose closure runs after the call returns, on a queue or in a task of its own, or an operation queue's.
    private static let laterCalls = CompletionPaths.deferringCalls.union(["addOperation"])

    /// Whether token `index` sits in a closure, inside the body opened at `open`, that is handed to a call that runs
    /// it later (`DispatchQueue.main.async { … }`, `Task { … }`), or to a project function that keeps it for a later
    /// callback instead of calling it (`locator.requestLocation { location in … }`, whose body stores the closure
    /// and asks for a position): the code around has returned by the time it runs.
    private func runsLater(_ index: Int, in file: SourceFile, fileIndex: Int, within open: Int) -> Bool {
        var scope = Int(file.scopeOf[index])
        while scope > 0, Int(file.scopes[scope].open) > open {
            let current = file.scopes[scope]
            if current.kind == .closure, current.name >= 0 {
                let call = Int(current.name)
                if Self.laterCalls.contains(file.text(call)) { return true }
                if keepsClosure(calledAt: call, in: file, fileIndex: fileIndex) { return true }
            }
            scope = Int(current.parent)
        }
        return false
    }

    /// Whether the call at `call`, given a trailing closure, reaches only project functions that never call the
    /// parameter the closure goes to (their last) in their bodies: each keeps the closure, or hands it on, for a
    /// callback that comes after the call has returned.
    private func keepsClosure(calledAt call: Int, in file: SourceFile, fileIndex: Int) -> Bool {
        guard file.isIdentifier(call), file.word(call) == .none else { return false }
        var after = call + 1
        if file.isPunct(after, ASCII.openParen) {
            let close = Int(file.matching[after])
            guard close > after else { return false }
            after = close + 1
        }
        guard file.isPunct(after, ASCII.openBrace) else { return false }
        let callees = project.resolved(
            file: fileIndex, token: call, name: file.text(call),
            labels: file.isPunct(call + 1, ASCII.openParen) ? file.labels(ofCallAt: call + 1) : [])
        return !callees.isEmpty && callees.allSatisfy(keepsLastClosure)
    }

    /// Whether project function `callee` never calls its last parameter in its body.
    private func keepsLastClosure(_ callee: CallableID) -> Bool {
        let info = project.index.callable(callee)
        guard info.kind == .function, info.open >= 0, let parameter = info.parameters.last else { return false }
        let body = project.file(Int(callee.file))
        let bodyOpen = Int(info.open)
        let bodyClose = Int(body.matching[bodyOpen])
        guard bodyClose > bodyOpen else { return false }
        for token in (bodyOpen + 1)..<bodyClose where body.isIdentifier(token) && body.text(token) == parameter {
            if body.isPunct(token + 1, ASCII.openParen)
                || body.isPunct(token + 1, ASCII.question) && body.isPunct(token + 2, ASCII.openParen)
            {
                return false
            }
        }
        return true
    }
}
