// One file for one type: the paths of one obligation, with the project functions they follow and the cache of
// what each returned, private to it (the walk over a body is PathWalker.swift).

/// A token in one of the project's files.
struct Site: Hashable, Sendable {
    var file: Int32
    var token: Int32

    init(_ file: Int, _ token: Int) {
        self.file = Int32(file)
        self.token = Int32(token)
    }
}

/// How the paths that reach the end of a block left it.
enum Fall: Sendable {
    /// Some path reaches the end without the work being finished; the site says where that path comes from
    /// (the start of the body, an `if` without `else`, a `catch` …).
    case open(Site)
    /// Every path that reaches the end has finished the work.
    case completed
    /// No path reaches the end (all return, throw or break).
    case none
}

/// What a body does with the obligation it was given, path by path.
struct PathOutcome: Sendable {
    /// `return`s (and, at the root, uncaught `throw`s and `try`s) taken while the work is unfinished.
    var leaks: [Site] = []
    /// `throw`s and `try`s taken while the work is unfinished that nothing here catches.
    var thrown: [Site] = []
    var fall: Fall = .none
    /// The body finishes the work or hands it to other code somewhere.
    var mentions = false
    /// Some path ends the process (`exit(0)`, `fatalError(…)`): the background task ends with it, though nothing
    /// calls `endBackgroundTask(_:)`, so it is no second end of a task the expiration handler ends.
    var endsProcess = false
    /// A `task.expirationHandler = …` assignment was seen.
    var setsExpirationHandler = false
    /// An expiration handler was set that does nothing but log (so the work is not cancelled): where it is set.
    var expirationHandlerOnlyLogs: Site?
    /// An expiration handler was set that only starts work for later (a `Task { … }`, an async dispatch) besides
    /// logging: whatever that work cancels or completes, it does after the handler has returned. Where it is set.
    var expirationHandlerOnlyDefers: Site?
    /// Where an expiration handler that only cancels a queue's operations, none of which stops when cancelled
    /// (`Walker.cancelsIgnoredOperations`), is set: cancelling them stops nothing.
    var expirationHandlerCancelsNothing: Site?
    /// An expiration handler was set that completes the task only in work it starts for later, whatever else it stops
    /// at once: where it is set.
    var expirationHandlerCompletesLater: Site?
    /// Some finishing happens in a closure or in code the obligation was handed to, so it may come after the body
    /// returns; without it, every path finished before returning.
    var finishesLater = false
    /// Finishing calls made on a path that had already finished (`setTaskCompleted` twice, no flag between).
    var repeated: [Site] = []
    /// An expiration handler set here completes the task in its own body
    /// (`task.expirationHandler = { work.cancel(); task.setTaskCompleted(success: false) }`).
    var expirationCompletes = false
    /// What such a handler marks when it runs (`CompletionPaths.expirationMarks`): a path leaving on a test of one
    /// leaves a task the handler has completed.
    var expirationMarks: Set<String> = []
    /// `setTaskCompleted` calls after an `await`, in a `Task { … }` closure or in the `async` body that set an
    /// expiration handler completing the task, that the closure or body reaches whatever happens (not under a
    /// condition, nor after a check of `Task.isCancelled`): cancelling a `Task` only asks it to stop, and nothing stops
    /// a body waiting at an `await`, so it runs on to them after an expiration handler has completed the task.
    var completionsInTasks: [Site] = []
    /// The expiration handler that completes the task also stops some work (`work.cancel()`, `queue.invalidate…`),
    /// which may be the work whose callback would complete it again.
    var expirationStops = false
    /// `setTaskCompleted` calls that every run of a callback closure handed to a call reaches (at the closure's own
    /// level, with no condition or exit before them): when time runs out first, the callback still comes and
    /// completes the task a second time.
    var completionsInCallbacks: [Site] = []
    /// Calls of project functions given a closure that finishes the work, where the function may return without
    /// calling that closure (the name of the called function's token).
    var uncalledContinuations: [Site] = []
    /// Calls made through an optional chain (`delegate?.refresh { … }`) given a closure that finishes the work: when
    /// the chain is `nil` the call, and the closure with it, is skipped.
    var skippedContinuations: [Site] = []
    /// Calls made through an optional chain (`self?.handle(task)`) that hand the work to a project function: when the
    /// chain is `nil` the call is skipped, and the work is never handed on.
    var skippedHandOvers: [Site] = []
    /// Properties a completion handler is stored in (itself, or a closure that calls it) with no look at what they
    /// held (`self.pending = completionHandler`): a push that comes before the last one is finished replaces that
    /// push's handler, which is then never called. The sites are the properties' names where they are assigned.
    var overwrites: [Site] = []
    /// The obligation was handed to code the audit cannot see (an unknown function, a stored property).
    var escaped = false
    /// Of those, handed to a function outside the sources or returned to the caller (not only kept in a property).
    var handedOutside = false
    /// A `BGTaskScheduler.submit(_:)` is reachable.
    var submits = false
    /// Where a called function that was handed the work returns without finishing it, keyed by the site that
    /// stands for them in the caller's path: they are leaks only if the caller's path does not finish the work
    /// after the call either (`closed` reads them back).
    var returnedUnfinished: [Site: [Site]] = [:]
    /// Skips reported where they are, also when the path then leaves by a `return`: those of called functions whose
    /// result the caller does not read (the caller cannot tell that the function skipped the work, so the skip is
    /// reported once, where the function skips it, not again at every `return` of every caller), and the cases of a
    /// `switch` that each skip the work where another case finishes it (reported where they begin).
    var skipsReportedInPlace: Set<Site> = []

    /// Where the body leaves the work unfinished: its leaks and the origin of a path left open, each site that stands
    /// for several (branches that each skip the work) taken as those it stands for.
    var unfinishedSites: [Site] {
        var sites = leaks
        if case .open(let origin) = fall { sites.append(origin) }
        return sites.flatMap { returnedUnfinished[$0] ?? [$0] }
    }

    /// Adds what `other`, a closure's or a called function's body, found that holds whether or not it finishes
    /// the work (its paths are the caller's to weigh).
    mutating func addFacts(of other: PathOutcome) {
        endsProcess = endsProcess || other.endsProcess
        setsExpirationHandler = setsExpirationHandler || other.setsExpirationHandler
        expirationHandlerOnlyLogs = expirationHandlerOnlyLogs ?? other.expirationHandlerOnlyLogs
        expirationHandlerOnlyDefers = expirationHandlerOnlyDefers ?? other.expirationHandlerOnlyDefers
        expirationHandlerCancelsNothing = expirationHandlerCancelsNothing ?? other.expirationHandlerCancelsNothing
        expirationHandlerCompletesLater = expirationHandlerCompletesLater ?? other.expirationHandlerCompletesLater
        repeated += other.repeated
        expirationCompletes = expirationCompletes || other.expirationCompletes
        expirationMarks.formUnion(other.expirationMarks)
        completionsInTasks += other.completionsInTasks
        expirationStops = expirationStops || other.expirationStops
        completionsInCallbacks += other.completionsInCallbacks
        uncalledContinuations += other.uncalledContinuations
        skippedContinuations += other.skippedContinuations
        skippedHandOvers += other.skippedHandOvers
        overwrites += other.overwrites
        escaped = escaped || other.escaped
        handedOutside = handedOutside || other.handedOutside
        submits = submits || other.submits
        returnedUnfinished.merge(other.returnedUnfinished) { $0 + $1 }
    }
}

/// Follows every path through a handler body to see whether it finishes its obligation: calls
/// `setTaskCompleted(success:)`, calls the push completion handler, reports the call to CallKit, or ends the
/// background task.
///
/// Control flow is read from the token stream: `if`/`else`, `guard … else`, `switch` cases, `do`/`catch`,
/// loops (which may run zero times), `repeat`, `defer`, `return`, `throw`, and `try` outside a `do` that catches.
/// A closure that finishes the work counts as finishing it (it is the asynchronous continuation); a closure
/// assigned to `expirationHandler` does not. A call that passes the obligation to a project function is followed
/// into that function (four calls deep); passing it to code outside the project counts as handing it over.
final class CompletionPaths {
    /// Calls whose trailing closure runs after the call has returned, in a task of its own or on a queue.
    static let deferringCalls: Set<String> = ["Task", "detached", "async", "asyncAfter"]

    enum Obligation: Sendable {
        /// `setTaskCompleted(success:)` on a `BGTask`.
        case taskCompleted
        /// Calling the completion handler parameter (`aliases` name it).
        case completionHandlerCalled
        /// `reportNewIncomingCall` (or `reportNewIncomingVoIPPushPayload`) on a `CXProvider`, or
        /// `reportNewIncomingConversation` on LiveCommunicationKit's `ConversationManager` (iOS 17.4).
        case incomingCallReported
        /// `endBackgroundTask(_:)` with the identifier `aliases` name.
        case backgroundTaskEnded
    }

    let project: Project
    let obligation: Obligation
    private var visiting: Set<CallableID> = []
    private var helperCache: [HelperKey: PathOutcome] = [:]
    private var mayFinishCache: [CallableID: Bool] = [:]
    private var callsBackCache: [HelperKey: [Site]] = [:]
    private var visitingClosures: Set<Site> = []
    private var closureCache: [ClosureKey: PathOutcome] = [:]
    private var subscribedClosureCache: [String: [Site]] = [:]
    /// Follows a closure parameter through the function it is passed to: this object itself when that is its
    /// obligation, so that one set of functions being followed guards against recursion.
    private var continuations: CompletionPaths {
        if obligation == .completionHandlerCalled { return self }
        if let made = continuationPaths { return made }
        let made = CompletionPaths(project: project, obligation: .completionHandlerCalled)
        continuationPaths = made
        return made
    }
    private var continuationPaths: CompletionPaths?

    private struct HelperKey: Hashable {
        var callee: CallableID
        var parameters: [Int]
        /// For a function nested in the body being walked, the names of the work it captures from there.
        var captured: [String] = []
    }

    private struct ClosureKey: Hashable {
        var open: Site
        var parameters: [Int]
    }

    static let maximumDepth = 4
    private static let loggingCalls: Set<String> = [
        "print", "debugPrint", "NSLog", "dump", "log", "info", "debug", "error", "warning", "notice", "fault",
        "trace", "critical", "os_log",
    ]

    init(project: Project, obligation: Obligation) {
        self.project = project
        self.obligation = obligation
    }

    /// Paths through the body whose `{` is at `open` (a closure's parameters are skipped). Uncaught throws are
    /// leaks here: nothing above the root can finish the work for them.
    func analyzeRoot(file fileIndex: Int, open: Int, aliases: Set<String>) -> PathOutcome {
        let file = project.file(fileIndex)
        let close = Int(file.matching[open])
        guard close > open else { return PathOutcome() }
        let isClosure = file.scopes[Int(file.scopeOf[open])].kind == .closure
        let start = isClosure ? Self.closureParameters(file, open: open).bodyStart : open + 1
        return Self.closed(walk(file, fileIndex, from: start, to: close, origin: open, aliases: aliases, depth: 0))
    }

    /// Paths from token `start` to `end` (which may cross out of the block `start` is in), for an obligation that
    /// begins at `origin`.
    func analyzeRange(file fileIndex: Int, from start: Int, to end: Int, origin: Int, aliases: Set<String>)
        -> PathOutcome
    {
        let file = project.file(fileIndex)
        return Self.closed(walk(file, fileIndex, from: start, to: end, origin: origin, aliases: aliases, depth: 0))
    }

    /// The outcome of walking tokens `start..<end` of `file` with the obligation named by `aliases`, begun at `origin`.
    private func walk(
        _ file: SourceFile, _ fileIndex: Int, from start: Int, to end: Int, origin: Int, aliases: Set<String>,
        depth: Int
    ) -> PathOutcome {
        var walker = Walker(paths: self, file: file, fileIndex: fileIndex, aliases: aliases, depth: depth)
        let fall = walker.block(start, end, entry: .open(Site(fileIndex, origin)), inDo: false)
        return walker.outcome(fall)
    }

    /// At a root nothing above can finish the work: uncaught errors and a path reaching the end unfinished are
    /// leaks.
    private static func closed(_ outcome: PathOutcome) -> PathOutcome {
        var closed = outcome
        closed.leaks += closed.thrown
        closed.thrown = []
        if case .open(let origin) = closed.fall, closed.mentions { closed.leaks.append(origin) }
        closed.leaks = closed.leaks.flatMap { closed.returnedUnfinished[$0] ?? [$0] }
        return closed
    }

    /// A closure's first body token after `{ [captures] (params) in`, and its parameter names; without an `in`
    /// the closure has no named parameters (`$0` is its first).
    static func closureParameters(_ file: SourceFile, open: Int) -> (bodyStart: Int, names: [String]) {
        var cursor = open + 1
        var names: [String] = []
        let close = Int(file.matching[open])
        let limit = min(close > open ? close : file.count, open + 48)
        while cursor < limit {
            if file.word(cursor) == .in { return (cursor + 1, names.isEmpty ? ["$0"] : names) }
            if file.isPunct(cursor, ASCII.openBracket), cursor == open + 1 {
                cursor = Int(file.matching[cursor]) + 1
                continue
            }
            if file.isPunct(cursor, ASCII.openParen) {
                for argument in file.arguments(ofCallAt: cursor) {
                    if argument.label >= 0 {
                        names.append(file.text(argument.label))
                    } else if file.isIdentifier(argument.start) {
                        names.append(file.text(argument.start))
                    }
                }
                let closeParen = Int(file.matching[cursor])
                guard closeParen > cursor else { break }
                cursor = closeParen + 1
                continue
            }
            if file.isIdentifier(cursor) {
                let word = file.word(cursor)
                if word != .none && word != .async && word != .throws && word != .some && word != .any {
                    break
                }
                if !file.isPunct(cursor - 1, ASCII.colon), !file.isPunct(cursor - 1, ASCII.dot),
                    !file.isPunct(cursor - 1, ASCII.at), word == .none
                {
                    names.append(file.text(cursor))
                }
                cursor += 1
                continue
            }
            if file.isPunct(cursor, ASCII.comma) || file.isPunct(cursor, ASCII.colon) || file.isPunct(cursor, ASCII.dot)
                || file.isPunct(cursor, ASCII.minus) || file.isPunct(cursor, ASCII.greater)
                || file.isPunct(cursor, ASCII.question) || file.isPunct(cursor, ASCII.bang)
                || file.isPunct(cursor, ASCII.at) || file.isPunct(cursor, ASCII.less)
            {
                cursor += 1
                continue
            }
            break
        }
        return (open + 1, ["$0"])
    }

    // MARK: For the walker

    func isFinishingCall(name: String, arguments: [Argument], in file: SourceFile, aliases: Set<String>) -> Bool {
        switch obligation {
        // A local closure that finishes the work (`completeOnce(true)`) is among the aliases.
        case .taskCompleted:
            return name == "setTaskCompleted" || aliases.contains(name)
        case .completionHandlerCalled:
            return aliases.contains(name)
        case .incomingCallReported:
            return Self.isReport(name) || aliases.contains(name)
        case .backgroundTaskEnded:
            // A local closure that ends the task (`finish()`) is among the aliases.
            if aliases.contains(name) { return true }
            if name == "map" || name == "forEach", arguments.count == 1,
                file.is(arguments[0].end - 1, "endBackgroundTask"),
                file.isPunct(arguments[0].start - 1, ASCII.openParen)
            {
                // `task.map(UIApplication.shared.endBackgroundTask)`: the optional identifier handed to the method.
                var receiver = arguments[0].start - 4
                if file.isPunct(receiver, ASCII.question) { receiver -= 1 }
                return file.isPunct(arguments[0].start - 3, ASCII.dot) && file.isIdentifier(receiver)
                    && aliases.contains(file.text(receiver))
            }
            guard name == "endBackgroundTask" else { return false }
            for argument in arguments {
                for token in argument.start..<argument.end where file.isIdentifier(token) {
                    if aliases.contains(file.text(token)) { return true }
                }
            }
            return false
        }
    }

    func isLogging(_ name: String) -> Bool { Self.loggingCalls.contains(name) }
    static func isLoggingCall(_ name: String) -> Bool { loggingCalls.contains(name) }

    /// The marks the expiration handler whose `{` is at `open` leaves when it runs: `isCancelled` when it cancels the
    /// operation it belongs to (`self.cancel()`), the name of a flag it sets (`expired = true`). A path that leaves on
    /// a test of one has been finished by the handler.
    static func expirationMarks(ofHandlerAt open: Int, in file: SourceFile) -> Set<String> {
        let close = Int(file.matching[open])
        guard close > open else { return [] }
        var marks: Set<String> = []
        for token in (open + 1)..<close where file.isIdentifier(token) {
            if file.is(token, "cancel"), file.isPunct(token + 1, ASCII.openParen),
                file.isPunct(token + 2, ASCII.closeParen),
                !file.isPunct(token - 1, ASCII.dot) || file.word(token - 2) == .self
            {
                marks.insert("isCancelled")
            } else if file.isPunct(token + 1, ASCII.equals), file.word(token + 2) == .true {
                marks.insert(file.text(token))
            }
        }
        return marks
    }

    /// What calls that stop work or end a task are called, for code outside the sources, whose effects cannot be
    /// read: `cancel()`, `endBackgroundTask(_:)`, `setTaskCompleted(success:)`, `invalidateAndCancel()`, `stop()` …
    private static let stoppingPrefixes = [
        "cancel", "end", "stop", "finish", "complet", "settaskcompleted", "invalidate", "suspend", "pause",
        "disconnect", "close", "abort", "terminate", "teardown", "shutdown", "interrupt",
    ]
    private var loggerCache: [CallableID: Bool] = [:]
    /// Project functions being judged, further up: a call back into one of them is taken to be a logger (what it
    /// does beyond that call is being judged there), and what is judged under that assumption is not kept.
    private var judging: Set<CallableID> = []
    private var assumptions = 0
    /// How many calls down a logger's body is read; deeper chains count as reaching the task.
    private static let loggerDepth = 6

    /// Whether the call at `token` is a logger: a call whose effects reach no task. A project function is judged by
    /// its body: it changes nothing but its own locals (and the objects it makes itself), and every call it makes is
    /// a logger, six calls deep; a call outside the sources by what it is called and given, as its body cannot be
    /// read (`print`, `os_log`, an SDK's `Logger.warn`, `Analytics.track` are loggers; `queue.cancelAllOperations()`,
    /// `session.invalidateAndCancel()` and `store.send(.sync(.stop))` are not).
    func isLogger(file fileIndex: Int, token: Int, depth: Int) -> Bool {
        let file = project.file(fileIndex)
        let name = file.text(token)
        let lowered = name.lowercased()
        let labels = file.isPunct(token + 1, ASCII.openParen) ? file.labels(ofCallAt: token + 1) : []
        // Cancelling a pending request (`BGTaskScheduler.shared.cancel(taskRequestWithIdentifier:)`) stops no work
        // that runs now, as a submit does not.
        if Self.isRequestCancel(name, labels) { return true }
        if Self.stoppingPrefixes.contains(where: { lowered.hasPrefix($0) }) { return false }
        // Every declaration the call may reach (one per `#if` branch, say) must be a logger.
        let candidates = project.resolved(file: fileIndex, token: token, name: name, labels: labels)
        if candidates.isEmpty, Self.sendsCommand(file, call: token) { return false }
        return candidates.allSatisfy { callee in
            if let known = loggerCache[callee] { return known }
            if judging.contains(callee) {
                assumptions += 1
                return true
            }
            guard depth < Self.loggerDepth else { return false }
            judging.insert(callee)
            let before = assumptions
            let result = bodyOnlyLogs(callee, depth: depth)
            judging.remove(callee)
            if assumptions == before || !result { loggerCache[callee] = result }
            return result
        }
    }

    /// `cancel(taskRequestWithIdentifier:)` and `cancelAllTaskRequests()`: calls that withdraw requests not yet run.
    private static func isRequestCancel(_ name: String, _ labels: [String]) -> Bool {
        (name == "cancel" && labels == ["taskRequestWithIdentifier"])
            || (name == "cancelAllTaskRequests" && labels.isEmpty)
    }

    /// A call outside the sources whose first argument is a case with a payload (`store.send(.sync(.stop))`)
    /// hands a command to another part of the app, as a log line never is.
    private static func sendsCommand(_ file: SourceFile, call token: Int) -> Bool {
        guard file.isPunct(token + 1, ASCII.openParen), let first = file.arguments(ofCallAt: token + 1).first,
            first.label < 0
        else { return false }
        return file.isPunct(first.start, ASCII.dot) && file.isIdentifier(first.start + 1)
            && file.isPunct(first.start + 2, ASCII.openParen)
    }

    private func bodyOnlyLogs(_ callee: CallableID, depth: Int) -> Bool {
        let info = project.index.callable(callee)
        guard info.kind == .function else { return false }
        let fileIndex = Int(callee.file)
        let file = project.file(fileIndex)
        let scope = file.scopes[Int(info.scope)]
        let open = Int(scope.open)
        let close = min(Int(scope.close), file.count)
        guard open >= 0, close > open else { return false }
        let locals = Self.locals(of: info, in: file, from: open, to: close)
        for index in (open + 1)..<close {
            if file.isAssignment(index) {
                // A local being declared (`let line = …`) or set, or a member of an object the function made
                // (`crumb.level = .info`), is no effect; anything else assigned is.
                guard Self.assignsOwnState(before: index, in: file, from: open, locals: locals) else { return false }
            }
            if file.isIdentifier(index), file.word(index) == .none, file.isPunct(index + 1, ASCII.openParen),
                !file.isPunct(index - 1, ASCII.hash), file.word(index - 1) != .func,
                !Self.isCallOnMadeObject(index, in: file, locals: locals),
                !isLogger(file: fileIndex, token: index, depth: depth + 1)
            {
                return false
            }
        }
        return true
    }

    /// The names a function's body declares (`let`, `var`) or is given as parameters, each with whether it holds an
    /// object the function made itself (`let handle = try FileHandle(forWritingTo: url)`, `let crumb = Breadcrumb()`).
    private static func locals(of info: CallableInfo, in file: SourceFile, from open: Int, to close: Int)
        -> [String: Bool]
    {
        var locals: [String: Bool] = [:]
        for name in info.parameters { locals[name] = false }
        for index in open..<close where file.word(index) == .let || file.word(index) == .var {
            guard file.isIdentifier(index + 1), file.word(index + 1) == .none else { continue }
            var value = index + 2
            if file.isPunct(value, ASCII.equals) {
                value += 1
                while file.word(value) == .try || file.word(value) == .await || file.isPunct(value, ASCII.question)
                    || file.isPunct(value, ASCII.bang)
                {
                    value += 1
                }
            }
            let made =
                file.isPunct(index + 2, ASCII.equals) && file.isIdentifier(value)
                && file.text(value).first?.isUppercase == true && file.isPunct(value + 1, ASCII.openParen)
            locals[file.text(index + 1)] = made || locals[file.text(index + 1)] == true
        }
        return locals
    }

    /// Whether the assignment whose `=` is at `equals` sets a local of the function, or a member of an object it
    /// made: the leftmost name of the assigned expression is one of them (a declaration, `let line = …`, too).
    private static func assignsOwnState(before equals: Int, in file: SourceFile, from open: Int, locals: [String: Bool])
        -> Bool
    {
        var start = equals - 1
        var member = false
        while start > open {
            if file.isPunct(start, ASCII.closeBracket) || file.isPunct(start, ASCII.closeParen) {
                let matching = Int(file.matching[start])
                guard matching < start, matching > open else { return false }
                start = matching - 1
                continue
            }
            if file.isPunct(start - 1, ASCII.dot) || file.isPunct(start - 1, ASCII.question)
                || file.isPunct(start - 1, ASCII.bang)
            {
                member = member || file.isPunct(start - 1, ASCII.dot)
                start -= file.isPunct(start - 1, ASCII.dot) ? 2 : 1
                continue
            }
            break
        }
        if file.word(start - 1) == .let || file.word(start - 1) == .var { return true }
        guard file.isIdentifier(start), file.word(start) == .none, let made = locals[file.text(start)] else {
            return false
        }
        return !member || made
    }

    /// A call on an object the function made itself (`handle.closeFile()`): it acts on that object only.
    private static func isCallOnMadeObject(_ index: Int, in file: SourceFile, locals: [String: Bool]) -> Bool {
        guard file.isPunct(index - 1, ASCII.dot), file.isIdentifier(index - 2) else { return false }
        return locals[file.text(index - 2)] == true && !file.isPunct(index - 3, ASCII.dot)
    }

    /// The calls that report an incoming call: CallKit's report, in any of its spellings
    /// (`reportNewIncomingCallWithUUID(_:update:completion:)` is Swift 2.3's), LiveCommunicationKit's, and that of
    /// the Flutter CallKit plugin apps call from their own PushKit delegate, whose source is not in their tree
    /// (`SwiftFlutterCallkitIncomingPlugin.showCallkitIncoming(_:fromPushKit:)` reports to CallKit at once).
    private static let reportCalls: [StaticString] = [
        "reportNewIncomingCall", "reportNewIncomingVoIPPushPayload", "reportNewIncomingCallWithUUID",
        "reportNewIncomingConversation", "showCallkitIncoming",
    ]
    private static let reportNames = Set(reportCalls.map(\.description))

    /// Whether `name` is one of `reportCalls`.
    static func isReport(_ name: String) -> Bool { reportNames.contains(name) }

    /// The names of the calls that finish the work, for the obligations a called function can finish on its own.
    private var finishingNames: [StaticString] {
        switch obligation {
        case .taskCompleted: ["setTaskCompleted"]
        case .incomingCallReported: Self.reportCalls
        case .backgroundTaskEnded: ["endBackgroundTask"]
        case .completionHandlerCalled: []
        }
    }

    /// Whether the body of `callee` mentions the finishing call, so that following it can matter. For a CallKit
    /// report, which no value has to reach (any report answers the push), also whether it calls a project function
    /// that reports, up to four calls down (`displayIncomingCall` → `provider.reportIncomingCall` →
    /// `reportNewIncomingCall`).
    func mayFinish(_ callee: CallableID) -> Bool {
        if let known = mayFinishCache[callee] { return known }
        let names = finishingNames
        var found = reaching[callee] != nil
        if !found, !names.isEmpty {
            let file = project.file(Int(callee.file))
            let scope = file.scopes[Int(project.index.callable(callee).scope)]
            let end = min(Int(scope.close), file.count)
            search: for token in max(Int(scope.open), 0)..<end {
                for name in names where file.is(token, name) {
                    found = true
                    break search
                }
            }
        }
        mayFinishCache[callee] = found
        return found
    }

    /// Whether project function `callee` reports an incoming call to CallKit, itself or through the project
    /// functions it calls (four calls down).
    func reportsCall(_ callee: CallableID) -> Bool { reaching[callee] != nil }

    /// The project functions that report an incoming call, and those that call them, four calls up, each with its
    /// distance from the report; built once from the call graph. A closure parameter that happens to be called
    /// `reportNewIncomingCall` is not CallKit's.
    private lazy var reaching: [CallableID: Int] = {
        guard obligation == .incomingCallReported else { return [:] }
        let names = Set(finishingNames.map { "\($0)" })
        let index = project.index
        var distance: [CallableID: Int] = [:]
        var frontier: [CallableID] = []
        for (fileIndex, file) in index.files.enumerated() {
            for call in file.calls where names.contains(call.name) {
                let id = CallableID(file: Int32(fileIndex), index: call.caller)
                if call.receiver == .implicit, index.callable(id).parameters.contains(call.name) { continue }
                if distance[id] == nil {
                    distance[id] = 0
                    frontier.append(id)
                }
            }
        }
        var level = 0
        while !frontier.isEmpty, level < Self.maximumDepth {
            level += 1
            var next: [CallableID] = []
            for id in frontier {
                for callID in index.callers(of: id) {
                    let caller = index.caller(of: callID)
                    if distance[caller] == nil {
                        distance[caller] = level
                        next.append(caller)
                    }
                }
            }
            frontier = next
        }
        return distance
    }()

    /// Whether project function `callee` calls its closure parameter `parameter` on every path (or keeps it or
    /// passes it on, which hands the call to other code). A function that is too deep or recursive counts as
    /// calling it: rather silence than a false alarm.
    func callsBack(_ callee: CallableID, parameter: Int) -> Bool {
        skipsCallback(callee, parameters: [parameter]).isEmpty
    }

    /// Where project function `callee` leaves without calling any of its closure parameters `parameters` (the closures
    /// given for them all finish the work): its `return`s, uncaught errors and the start of a path that reaches its
    /// end; empty when it calls one on every path (see `callsBack`).
    func skipsCallback(_ callee: CallableID, parameters: [Int]) -> [Site] {
        let key = HelperKey(callee: callee, parameters: parameters.sorted())
        if let known = callsBackCache[key] { return known }
        var sites: [Site] = []
        // A parameter never called at all may not be a closure (another overload was meant): not judged, unless it
        // is declared as one and never named in the body (`completion: @escaping (Bool) -> Void`, ignored).
        if let outcome = continuations.helper(callee, parameters: parameters.sorted(), depth: 1), !outcome.escaped,
            outcome.mentions || parameters.allSatisfy({ isIgnoredClosure(callee, parameter: $0) })
        {
            sites = outcome.leaks + outcome.thrown
            if case .open(let origin) = outcome.fall { sites.append(origin) }
            sites = sites.flatMap { outcome.returnedUnfinished[$0] ?? [$0] }
        }
        callsBackCache[key] = sites
        return sites
    }

    /// Whether parameter `parameter` of `callee` is declared with a function type and its name appears nowhere in the
    /// body: a closure the function never calls.
    private func isIgnoredClosure(_ callee: CallableID, parameter: Int) -> Bool {
        let info = project.index.callable(callee)
        guard parameter < info.takesClosure.count, info.takesClosure[parameter] else { return false }
        let file = project.file(Int(callee.file))
        let scope = file.scopes[Int(info.scope)]
        let name = info.parameters[parameter]
        return !((Int(scope.open) + 1)..<min(Int(scope.close), file.count)).contains {
            file.isIdentifier($0) && file.text($0) == name
        }
    }

    /// Where project function `callee` keeps its closure parameter `parameter` in a property without a look at what
    /// the property held (`PathOutcome.overwrites`).
    func overwritesCallback(_ callee: CallableID, parameter: Int) -> [Site] {
        continuations.helper(callee, parameters: [parameter], depth: 1)?.overwrites ?? []
    }

    /// Whether project function `callee` is being followed further up: a call of it is a recursion.
    func isBeingFollowed(_ callee: CallableID) -> Bool { visiting.contains(callee) }

    /// The outcome of a project function that is given the obligation through the parameters at `parameters`
    /// (or, with none, reaches it some other way), or, for a function nested in the body being walked, sees it by
    /// the names it captures (`captured`); `nil` when it is already being analysed further up.
    func helper(_ callee: CallableID, parameters: [Int], depth: Int, captured: Set<String> = []) -> PathOutcome? {
        let key = HelperKey(callee: callee, parameters: parameters, captured: captured.sorted())
        if let cached = helperCache[key] { return cached }
        guard depth <= Self.maximumDepth, !visiting.contains(callee) else { return nil }
        let info = project.index.callable(callee)
        guard info.kind == .function || info.kind == .initializer else { return nil }
        visiting.insert(callee)
        defer { visiting.remove(callee) }
        let fileIndex = Int(callee.file)
        let file = project.file(fileIndex)
        let scope = file.scopes[Int(info.scope)]
        let open = Int(scope.open)
        let close = Int(scope.close)
        guard open >= 0, close > open, close <= file.count else { return nil }
        let aliases = Set(parameters.compactMap { $0 < info.parameters.count ? info.parameters[$0] : nil })
            .union(captured.subtracting(info.parameters))
        let outcome = walk(file, fileIndex, from: open + 1, to: close, origin: open, aliases: aliases, depth: depth)
        helperCache[key] = outcome
        return outcome
    }

    /// The closures that receive what a Combine subject named `subject` sends (`subject.send(value)`): each `sink`'s
    /// value closure (its trailing closure, or the one labelled `receiveValue:`) on a chain that starts at the subject,
    /// or at a computed property whose body names it (`var pushes: AnyPublisher<…> { subject.eraseToAnyPublisher() }`).
    func subscribedClosures(of subject: String) -> [Site] {
        if let known = subscribedClosureCache[subject] { return known }
        let index = project.index
        var names: Set<String> = [subject]
        for fileIndex in 0..<project.fileCount {
            for callable in project.summary(fileIndex).callables where callable.kind == .property && callable.open >= 0
            {
                let file = project.file(fileIndex)
                let close = Int(file.matching[Int(callable.open)])
                guard close > Int(callable.open) else { continue }
                if (Int(callable.open)..<close).contains(where: { file.isIdentifier($0) && file.text($0) == subject }) {
                    names.insert(callable.name)
                }
            }
        }
        var sites: [Site] = []
        for call in index.calls(named: "sink") {
            let fileIndex = Int(call.file)
            let file = project.file(fileIndex)
            let token = Int(index.call(call).token)
            guard file.isPunct(token - 1, ASCII.dot) else { continue }
            // The chain before `.sink`, back to the start of its statement.
            var start = token - 1
            while start > 0, !file.startsStatement(start) || file.isPunct(start, ASCII.dot) { start -= 1 }
            guard (start..<token).contains(where: { file.isIdentifier($0) && names.contains(file.text($0)) }) else {
                continue
            }
            if let open = Self.valueClosure(ofSinkAt: token, in: file) { sites.append(Site(fileIndex, open)) }
        }
        subscribedClosureCache[subject] = sites
        return sites
    }

    /// The `{` of the value closure of the `sink` call at `token`: `sink { value in … }`, `sink(receiveValue: { … })`,
    /// or `sink { completion in … } receiveValue: { value in … }`.
    private static func valueClosure(ofSinkAt token: Int, in file: SourceFile) -> Int? {
        var after = token + 1
        if file.isPunct(after, ASCII.openParen) {
            let arguments = file.arguments(ofCallAt: after)
            if let value = arguments.first(where: { $0.label >= 0 && file.is($0.label, "receiveValue") }),
                file.isPunct(value.start, ASCII.openBrace)
            {
                return value.start
            }
            let close = Int(file.matching[after])
            guard close > after else { return nil }
            after = close + 1
        }
        guard file.isPunct(after, ASCII.openBrace) else { return nil }
        let close = Int(file.matching[after])
        if close > after, file.is(close + 1, "receiveValue"), file.isPunct(close + 2, ASCII.colon),
            file.isPunct(close + 3, ASCII.openBrace)
        {
            return close + 3
        }
        return after
    }

    /// The outcome of the closure whose `{` is at `open`, a property's value the walk calls, given the obligation
    /// through its parameters at `parameters` (or, with none, reaching it some other way); `nil` when it is already
    /// being analysed further up.
    func closure(_ open: Site, parameters: [Int], depth: Int) -> PathOutcome? {
        let key = ClosureKey(open: open, parameters: parameters)
        if let cached = closureCache[key] { return cached }
        guard depth <= Self.maximumDepth, !visitingClosures.contains(open) else { return nil }
        visitingClosures.insert(open)
        defer { visitingClosures.remove(open) }
        let fileIndex = Int(open.file)
        let file = project.file(fileIndex)
        let close = Int(file.matching[Int(open.token)])
        guard close > Int(open.token) else { return nil }
        let (start, names) = Self.closureParameters(file, open: Int(open.token))
        let aliases = Set(parameters.compactMap { $0 < names.count ? names[$0] : nil })
        let outcome = walk(
            file, fileIndex, from: start, to: close, origin: Int(open.token), aliases: aliases, depth: depth)
        closureCache[key] = outcome
        return outcome
    }
}
