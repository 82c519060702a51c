// One file for one check: the three rules judge the same handler, found once per registration (the closure, a
// function named, or what a wrapper is given), and their helpers answer questions only these rules ask.
/// The rules about what a launch handler does with its `BGTask`: complete it on every path, set an expiration
/// handler, and submit its successor.
struct HandlerCheck {
    let project: Project

    func run(into findings: inout [Finding]) {
        let paths = CompletionPaths(project: project, obligation: .taskCompleted)
        let requests = project.requestKinds
        for fileIndex in 0..<project.fileCount {
            let summary = project.summary(fileIndex)
            guard summary.needsDetailedPass, !summary.registrations.isEmpty else { continue }
            for registration in summary.registrations {
                check(registration, file: fileIndex, paths: paths, requests: requests, into: &findings)
            }
        }
    }

    /// Where a handler's body is: the `{` of a closure or of the function passed as `launchHandler`, the file it is
    /// in, and the name the task has inside it.
    struct Handler {
        var file: Int
        var open: Int
        var taskName: String
        /// For a function passed by name (`launchHandler: handleRefresh`), its name's token: a mistake in its body is
        /// reported there, naming the registration.
        var function: Int? = nil
    }

    private func check(
        _ registration: RegistrationInfo, file fileIndex: Int, paths: CompletionPaths, requests: Project.RequestKinds,
        into findings: inout [Finding]
    ) {
        let file = project.file(fileIndex)
        let token = Int(project.summary(fileIndex).calls[Int(registration.call)].token)
        if let forwarded = forwardedHandlers(registration, file: fileIndex) {
            for handler in forwarded {
                judge(
                    handler.handler, of: registration, file: fileIndex, identifier: handler.identifier,
                    registeredAt: handler.location, through: handler.call, paths: paths, requests: requests,
                    into: &findings)
            }
            return
        }
        guard let handler = handler(of: token, in: file, fileIndex: fileIndex) else { return }
        judge(
            handler, of: registration, file: fileIndex, identifier: describe(registration, file: fileIndex),
            registeredAt: file.location(token), through: nil, paths: paths, requests: requests, into: &findings)
    }

    /// Judges one launch handler of `registration`, registered (for the reader) at `registeredAt`, through the call
    /// of the app's own wrapper `wrapperCall` when there is one.
    private func judge(
        _ handler: Handler, of registration: RegistrationInfo, file fileIndex: Int, identifier described: String,
        registeredAt: SourceLocation, through wrapperCall: CallID?, paths: CompletionPaths,
        requests: Project.RequestKinds,
        into findings: inout [Finding]
    ) {
        // A handler for an identifier nothing requests (or only code nothing runs) never runs:
        // `registered-never-submitted` names the fault, and nothing in it is judged.
        guard !isNeverRequested(registration, file: fileIndex, through: wrapperCall, requests: requests) else { return }
        func report(_ rule: Rule, at location: SourceLocation, _ message: String) {
            findings.append(Finding(rule: rule, at: location, message: message))
        }
        let outcome = paths.analyzeRoot(file: handler.file, open: handler.open, aliases: [handler.taskName])
        var identifier = described
        var location = registeredAt
        if let function = handler.function {
            // The mistake is in the function the registration names: point there, and name the registration.
            let functionFile = project.file(handler.file)
            location = functionFile.location(function)
            identifier +=
                " (registered at \(ProjectIndex.short(registeredAt)) with "
                + "`\(functionFile.text(function))` as its handler)"
        }
        if registration.kind == .sceneModifier {
            if !outcome.submits {
                report(
                    .handlerNotRescheduling, at: location,
                    "The `.backgroundTask(.appRefresh(\(identifier)))` action submits no new "
                        + "BGAppRefreshTaskRequest, so it runs once.")
            }
            return
        }
        if !outcome.mentions, handler.function == nil, let target = handOff(of: handler) {
            // The registered closure only hands the task on (`self.handleRefresh(task: task)`): the mistake is in
            // the function it hands it to, and in each `return` the closure takes before handing it on.
            let targetFile = project.file(target.file)
            report(
                .handlerNotCompleted, at: targetFile.location(target.token),
                "`\(targetFile.text(target.token))`, given the task for \(identifier) (registered at "
                    + "\(ProjectIndex.short(registeredAt))), never calls setTaskCompleted(success:) outside its "
                    + "expiration handler.")
            let file = project.file(handler.file)
            let close = Int(file.matching[handler.open])
            let inClosure = handler.open..<close
            for leak in Set(outcome.leaks) where Int(leak.file) == handler.file && inClosure.contains(Int(leak.token)) {
                report(
                    .handlerNotCompleted, at: file.location(Int(leak.token)),
                    Self.leakMessage(
                        file, Int(leak.token), owed: "setTaskCompleted(success:)", what: "the task for \(identifier)"))
            }
        } else if !outcome.mentions {
            report(
                .handlerNotCompleted, at: location,
                "The launch handler for \(identifier) never calls setTaskCompleted(success:) "
                    + "outside its expiration handler.")
        } else {
            for leak in Set(outcome.leaks).sorted(by: { ($0.file, $0.token) < ($1.file, $1.token) }) {
                let leakFile = project.file(Int(leak.file))
                // Taken only once the work was cancelled, which only the expiration handler does, and it has
                // completed the task: `guard !Task.isCancelled else { return }`, a URL session task's cancelled
                // error (`code == .cancelled`), or a flag it sets.
                if outcome.expirationCompletes,
                    Self.leavesWhenCancelled(
                        leakFile, Int(leak.token),
                        marks: outcome.expirationMarks.union(["isCancelled", "cancelled", "NSURLErrorCancelled"]))
                {
                    continue
                }
                report(
                    .handlerNotCompleted, at: leakFile.location(Int(leak.token)),
                    Self.leakMessage(
                        leakFile, Int(leak.token), owed: "setTaskCompleted(success:)",
                        what: "the task for \(identifier)"))
            }
        }
        // Each site once, in file order, with a message made from the token at the site.
        func reportEach(_ sites: Set<Site>, _ rule: Rule, _ message: (SourceFile, Int) -> String) {
            for site in sites.sorted(by: { ($0.file, $0.token) < ($1.file, $1.token) }) {
                let siteFile = project.file(Int(site.file))
                report(rule, at: siteFile.location(Int(site.token)), message(siteFile, Int(site.token)))
            }
        }
        reportEach(Set(outcome.uncalledContinuations), .handlerNotCompleted) { siteFile, token in
            "`\(siteFile.text(token))` may return without calling the closure that completes the task for "
                + "\(identifier), so on that path the task is never completed."
        }
        reportEach(Set(outcome.skippedContinuations), .handlerNotCompleted) { siteFile, token in
            "`\(siteFile.text(token))` is called through an optional chain: when it is nil the call is skipped, and "
                + "with it the closure that completes the task for \(identifier)."
        }
        reportEach(Set(outcome.skippedHandOvers), .handlerNotCompleted) { siteFile, token in
            "`\(siteFile.text(token))` is called through an optional chain: when it is nil the call is skipped, and "
                + "the task for \(identifier), handed to it, is never completed."
        }
        let repeatedSites = Set(outcome.repeated)
        reportEach(repeatedSites, .taskCompletedTwice) { _, _ in
            "setTaskCompleted(success:) is called again for the task for \(identifier) on a path that has already "
                + "completed it; the first result is the one that counts."
        }
        if outcome.expirationCompletes, !outcome.expirationStops {
            // Nothing the expiration handler does keeps the callback from coming after it.
            reportEach(Set(outcome.completionsInCallbacks).subtracting(repeatedSites), .taskCompletedTwice) { _, _ in
                "The expiration handler completes the task for \(identifier), but nothing it does keeps this "
                    + "callback from coming (cancelling a URL session task still calls its completion handler), and "
                    + "the callback completes it again: when time runs out first, the task is completed twice."
            }
        }
        if outcome.expirationCompletes {
            reportEach(Set(outcome.completionsInTasks).subtracting(repeatedSites), .taskCompletedTwice) { _, _ in
                "The expiration handler completes the task for \(identifier), and this call completes it again: "
                    + "cancelling a `Task` only asks it to stop, and nothing stops code waiting at an `await`, so "
                    + "once the `await` before it returns it runs on to this call unless it checks "
                    + "`Task.isCancelled` first."
            }
        }
        // A handler that completes its task only before it returns (where it completes it at all: a path that
        // leaves it uncompleted is `handler-not-completed`'s) leaves no work running to cancel.
        let completesBeforeReturning =
            outcome.mentions && !outcome.finishesLater && !outcome.escaped
            && !blocksOnWork(file: handler.file, open: handler.open, depth: 0)
        // An expiration handler that does not do its work is reported where it is set, the mistake's line, naming the
        // registration unless it is set in the function registered by name.
        let named =
            handler.function != nil ? identifier : "\(identifier) (registered at \(ProjectIndex.short(location)))"
        if !outcome.setsExpirationHandler,
            let onlyLogs = outcome.expirationHandlerOnlyLogs ?? outcome.expirationHandlerOnlyDefers,
            !completesBeforeReturning
        {
            let site = project.file(Int(onlyLogs.file)).location(Int(onlyLogs.token))
            let does =
                outcome.expirationHandlerOnlyLogs != nil
                ? "only logs (or schedules again, or sets a flag nothing tests while the work runs): it neither cancels "
                    + "the work nor completes the task"
                : "only starts work for later (a `Task` or an async dispatch): what that work cancels or completes "
                    + "happens after the handler has returned"
            report(
                .handlerMissingExpirationHandler, at: site,
                "The expiration handler of the task for \(named) \(does), so the work runs on when time is up and "
                    + "iOS ends the app.")
        } else if !outcome.setsExpirationHandler, let cancels = outcome.expirationHandlerCancelsNothing,
            !completesBeforeReturning
        {
            report(
                .handlerMissingExpirationHandler, at: project.file(Int(cancels.file)).location(Int(cancels.token)),
                "The expiration handler of the task for \(named) only cancels the operations of a queue, and cancelling "
                    + "stops none of them (no block reads `isCancelled`, a block that starts a `Task` has returned, or "
                    + "the queue is given none): the work runs on, and the task is not completed when time is up.")
        } else if let later = outcome.expirationHandlerCompletesLater, !completesBeforeReturning {
            report(
                .handlerMissingExpirationHandler, at: project.file(Int(later.file)).location(Int(later.token)),
                "The expiration handler of the task for \(named) completes it only in work it starts for later (a "
                    + "`Task` or an async dispatch), after it has returned, when the time it was called for is up; "
                    + "complete the task in the handler itself.")
        } else if !outcome.setsExpirationHandler, outcome.escaped, !outcome.handedOutside,
            !project.index.files.contains(where: \.assignsExpirationHandler)
        {
            report(
                .handlerMissingExpirationHandler, at: location,
                "The task for \(identifier) is kept in a property, and nothing in the sources ever sets "
                    + "an expirationHandler, so the work is not cancelled when time runs out.")
        } else if !outcome.setsExpirationHandler, !outcome.escaped, !completesBeforeReturning {
            report(
                .handlerMissingExpirationHandler, at: location,
                "The launch handler for \(identifier) never sets task.expirationHandler, so the "
                    + "work is not cancelled when time runs out and the run counts as failed.")
        }
        if !outcome.submits, !outcome.escaped,
            !project.registersContinuedTask(CallID(file: Int32(fileIndex), index: registration.call)),
            !isProcessingTask(registration, file: fileIndex, through: wrapperCall, requests: requests),
            !takesProcessingTask(handler)
        {
            report(
                .handlerNotRescheduling, at: location,
                "The launch handler for \(identifier) never submits a new request, so the task "
                    + "runs once and its chain stops.")
        }
    }

    /// Whether `token` leaves through a `guard` or `if` whose condition tests `Task.isCancelled`, or one of the other
    /// `marks` (names an expiration handler sets when it runs).
    static func leavesWhenCancelled(_ file: SourceFile, _ token: Int, marks: Set<String> = ["isCancelled"]) -> Bool {
        let scope = file.scopes[Int(file.scopeOf[token])]
        guard scope.kind == .control, scope.head >= 0 else { return false }
        var start = Int(scope.head)
        switch scope.control {
        case .if:
            break
        case .else:
            // `guard … else {`: the condition runs back to the `guard`; an `else` after a `}` belongs to an `if`.
            guard !file.isPunct(start - 1, ASCII.closeBrace) else { return false }
            while start > 0, file.word(start) != .guard {
                if file.isPunct(start, ASCII.openBrace) || file.isPunct(start, ASCII.closeBrace) { return false }
                start -= 1
            }
        default:
            return false
        }
        return (start..<Int(scope.open)).contains { file.isIdentifier($0) && marks.contains(file.text($0)) }
    }

    /// Whether the body opened at `open` blocks its thread until other work is done, with a `wait` on a semaphore or
    /// a dispatch group (`group.wait()`, `semaphore.wait(timeout:)`), itself or in the project functions it calls
    /// (three calls deep): a handler that completes its task before it returns, but only after such a wait, still
    /// has work running when time is up, for its expiration handler to stop.
    private func blocksOnWork(file fileIndex: Int, open: Int, depth: Int) -> Bool {
        let file = project.file(fileIndex)
        guard open >= 0, open < file.count else { return false }
        let close = Int(file.matching[open])
        guard close > open else { return false }
        for token in (open + 1)..<close where file.isIdentifier(token) && file.isPunct(token + 1, ASCII.openParen) {
            if file.is(token, "wait"), file.isPunct(token - 1, ASCII.dot) { return true }
            guard depth < 3, file.word(token) == .none, let call = project.call(file: fileIndex, token: token),
                let callee = project.callee(file: fileIndex, token: token, name: call.name, labels: call.labels),
                project.index.callable(callee).open >= 0
            else { continue }
            if blocksOnWork(file: Int(callee.file), open: Int(project.index.callable(callee).open), depth: depth + 1) {
                return true
            }
        }
        return false
    }

    /// Whether the handler's body takes its task as a processing task (`task as? BGProcessingTask`), and never as an
    /// app refresh task: whatever its identifier, it is not a refresh (`isProcessingTask`).
    private func takesProcessingTask(_ handler: Handler) -> Bool {
        let file = project.file(handler.file)
        let close = Int(file.matching[handler.open])
        guard close > handler.open else { return false }
        var processing = false
        for token in handler.open..<close where file.isIdentifier(token) {
            if file.is(token, "BGAppRefreshTask") { return false }
            if file.is(token, "BGProcessingTask") || file.is(token, "BGContinuedProcessingTask") { processing = true }
        }
        return processing
    }

    /// A processing task runs for work the app has (Apple's sample cleans its database; a queue of uploads to drain)
    /// and is submitted when there is some — on a move to the background, at launch, when work is queued — so its
    /// handler owes no successor; an app refresh task is expected to submit its own, a continued-processing task,
    /// started by the person, none either.
    private func isProcessingTask(
        _ registration: RegistrationInfo, file: Int, through wrapperCall: CallID?, requests: Project.RequestKinds
    ) -> Bool {
        let index = project.index
        let callID = CallID(file: Int32(file), index: registration.call)
        let values = Set(
            index.resolveIdentifier(registration.identifier, in: index.caller(of: callID), origin: callID)
                .filter { wrapperCall == nil || $0.origin == wrapperCall }.map(\.value))
        guard !values.isEmpty else { return false }
        return values.allSatisfy { value in
            guard case .known = value, let kinds = requests[value] else { return false }
            return kinds.isSubset(of: [.processing, .continued])
        }
    }

    /// Whether no request is ever built for the registered identifier (every value known, and no request's identifier
    /// unknown): the handler never runs, so it has no chain to stop; `registered-never-submitted` names the fault.
    private func isNeverRequested(
        _ registration: RegistrationInfo, file: Int, through wrapperCall: CallID?, requests: Project.RequestKinds
    ) -> Bool {
        let index = project.index
        let callID = CallID(file: Int32(file), index: registration.call)
        let values = index.resolveIdentifier(registration.identifier, in: index.caller(of: callID), origin: callID)
            .filter { wrapperCall == nil || $0.origin == wrapperCall }.map(\.value)
        guard !values.isEmpty, !requests.keys.contains(where: { if case .unknown = $0 { true } else { false } })
        else { return false }
        return values.allSatisfy { value in
            guard case .known = value else { return false }
            return requests[value] == nil
        }
    }

    /// The registered identifier as a reader knows it: its value when the sources tell it, else the expression.
    /// Through the app's own wrapper (`wrapperCall`), the value that call passes.
    private func describe(_ registration: RegistrationInfo, file: Int, through wrapperCall: CallID? = nil) -> String {
        let index = project.index
        let callID = CallID(file: Int32(file), index: registration.call)
        let values = index.resolveIdentifier(registration.identifier, in: index.caller(of: callID), origin: callID)
            .filter { wrapperCall == nil || $0.origin == wrapperCall }
        if values.count == 1, case .known(let value) = values[0].value { return "\"\(value)\"" }
        return "`\(registration.identifier.display)`"
    }

    /// The one project function a registered closure hands its task to (`self.handle(task: task)`, also after a cast
    /// `guard let task = task as? BGProcessingTask`): its name's file and token, or `nil` when the closure hands the
    /// task to none or to several.
    private func handOff(of handler: Handler) -> (file: Int, token: Int)? {
        let file = project.file(handler.file)
        let close = Int(file.matching[handler.open])
        guard close > handler.open else { return nil }
        var names: Set<String> = [handler.taskName]
        var targets: Set<CallableID> = []
        for token in (handler.open + 1)..<close where file.isIdentifier(token) {
            if file.word(token) == .let || file.word(token) == .var, file.isIdentifier(token + 1),
                file.isPunct(token + 2, ASCII.equals), names.contains(file.text(token + 3)), file.word(token + 4) == .as
            {
                names.insert(file.text(token + 1))
            }
            guard file.word(token) == .none, file.isPunct(token + 1, ASCII.openParen) else { continue }
            let arguments = file.arguments(ofCallAt: token + 1)
            // The task itself, or cast (`task as! BGProcessingTask`).
            guard
                arguments.contains(where: {
                    names.contains(file.text($0.start)) && ($0.end == $0.start + 1 || file.word($0.start + 1) == .as)
                }),
                let callee = project.callee(
                    file: handler.file, token: token, name: file.text(token), labels: file.labels(ofCallAt: token + 1))
            else { continue }
            targets.insert(callee)
        }
        guard targets.count == 1, let target = targets.first else { return nil }
        let targetFile = project.file(Int(target.file))
        let scope = Int(project.summary(Int(target.file)).callables[Int(target.index)].scope)
        let name = Int(targetFile.scopes[scope].name)
        guard name >= 0, project.summary(Int(target.file)).callables[Int(target.index)].kind == .function else {
            return nil
        }
        return (Int(target.file), name)
    }

    /// How a leak site leaves without finishing, worded for a message.
    static func leakMessage(_ file: SourceFile, _ token: Int, owed: String, what: String) -> String {
        if token > 0, file.word(token - 1) == .if {
            return "When this condition holds, \(what) reaches its end without calling \(owed)."
        }
        switch file.word(token) {
        case .return:
            return "This return leaves \(what) without calling \(owed)."
        case .throw, .try:
            return "An error thrown here ends \(what) without calling \(owed)."
        case .catch:
            return "This catch ends without calling \(owed) for \(what)."
        case .if:
            return "When this condition is false, \(what) reaches its end without calling \(owed)."
        case .case, .default:
            return "This case reaches the end of \(what) without calling \(owed)."
        default:
            return "A path through here reaches the end of \(what) without calling \(owed)."
        }
    }

    /// The tokens of a registration's handler body: the closure written at the call, or the body of the function
    /// passed by name (found through the call graph, which needs the file's tokens).
    func region(of registration: RegistrationInfo, file fileIndex: Int) -> HandlerRegion? {
        if registration.handlerOpen >= 0 {
            return HandlerRegion(
                file: Int32(fileIndex), open: registration.handlerOpen, close: registration.handlerClose)
        }
        let file = project.file(fileIndex)
        let token = Int(project.summary(fileIndex).calls[Int(registration.call)].token)
        guard let handler = handler(of: token, in: file, fileIndex: fileIndex) else { return nil }
        let close = Int(project.file(handler.file).matching[handler.open])
        guard close > handler.open else { return nil }
        return HandlerRegion(file: Int32(handler.file), open: Int32(handler.open), close: Int32(close))
    }

    func handler(of token: Int, in file: SourceFile, fileIndex: Int) -> Handler? {
        guard file.isPunct(token + 1, ASCII.openParen) else { return nil }
        let close = Int(file.matching[token + 1])
        guard close > token else { return nil }
        let arguments = file.arguments(ofCallAt: token + 1)
        if file.is(token, "backgroundTask") {
            guard file.isPunct(close + 1, ASCII.openBrace) else { return nil }
            return Handler(file: fileIndex, open: close + 1, taskName: "")
        }
        if let argument = arguments.first(where: { $0.label >= 0 && file.is($0.label, "launchHandler") }) {
            if file.isPunct(argument.start, ASCII.openBrace) {
                return closureHandler(file, open: argument.start, fileIndex: fileIndex)
            }
            // `launchHandler: refresh`, a closure bound to a local of the body (`let refresh = { task in … }`).
            if argument.end == argument.start + 1, file.isIdentifier(argument.start),
                let equals = file.localBindings(named: file.text(argument.start), before: token).last,
                file.isPunct(equals + 1, ASCII.openBrace)
            {
                return closureHandler(file, open: equals + 1, fileIndex: fileIndex)
            }
            return functionHandler(file, argument: argument, fileIndex: fileIndex)
        }
        if file.isPunct(close + 1, ASCII.openBrace) {
            return closureHandler(file, open: close + 1, fileIndex: fileIndex)
        }
        return nil
    }

    /// A launch handler given to the app's own registration wrapper, and where it is registered.
    private struct ForwardedHandler {
        var handler: Handler
        var identifier: String
        var location: SourceLocation
        /// The call of the wrapper.
        var call: CallID
    }

    /// For a registration in the app's own wrapper that hands the task on to a closure the wrapper is given
    /// (`launchHandler: handler`, or `{ task in handler(task) }`, `handler` a parameter of the wrapper): the closures
    /// (or functions named) its callers pass are the launch handlers, each registered where the wrapper is called.
    /// `nil` for any other registration.
    private func forwardedHandlers(_ registration: RegistrationInfo, file fileIndex: Int) -> [ForwardedHandler]? {
        let index = project.index
        let registrationID = CallID(file: Int32(fileIndex), index: registration.call)
        let wrapperID = index.caller(of: registrationID)
        let wrapper = index.callable(wrapperID)
        guard wrapper.kind == .function,
            let parameter = forwardingParameter(of: registration, file: fileIndex, in: wrapper)
        else { return nil }
        var result: [ForwardedHandler] = []
        for callID in index.callers(of: wrapperID) {
            let call = index.call(callID)
            let callFile = project.file(Int(callID.file))
            guard
                let handler = argument(
                    parameter, of: wrapper, passedBy: call, in: callFile, fileIndex: Int(callID.file))
            else { continue }
            let identifier = describe(registration, file: fileIndex, through: callID)
            let location = callFile.location(Int(call.token))
            result.append(ForwardedHandler(handler: handler, identifier: identifier, location: location, call: callID))
        }
        return result
    }

    /// The position of the wrapper's parameter a registration hands its task to: `launchHandler: handler`, or a
    /// registered closure that calls `handler(task)` with the task it is given.
    private func forwardingParameter(of registration: RegistrationInfo, file fileIndex: Int, in wrapper: CallableInfo)
        -> Int?
    {
        let file = project.file(fileIndex)
        let token = Int(project.summary(fileIndex).calls[Int(registration.call)].token)
        guard file.isPunct(token + 1, ASCII.openParen) else { return nil }
        if let argument = file.arguments(ofCallAt: token + 1).first(where: {
            $0.label >= 0 && file.is($0.label, "launchHandler")
        }), argument.end == argument.start + 1, file.isIdentifier(argument.start) {
            return wrapper.parameters.firstIndex(of: file.text(argument.start))
        }
        guard registration.handlerOpen >= 0, registration.handlerClose > registration.handlerOpen else { return nil }
        // `{ task in handler(task) }`, with nothing else in it but logging: the wrapper adds nothing to the handler.
        let open = Int(registration.handlerOpen)
        let close = Int(registration.handlerClose)
        let parameters = CompletionPaths.closureParameters(file, open: open)
        let taskName = parameters.names.first ?? "$0"
        var forwarded: Int?
        var cursor = parameters.bodyStart
        while cursor < close {
            if cursor > parameters.bodyStart, !file.startsStatement(cursor) {
                cursor = file.matching[cursor] > cursor ? Int(file.matching[cursor]) + 1 : cursor + 1
                continue
            }
            if file.isIdentifier(cursor), file.isPunct(cursor + 1, ASCII.openParen), file.isIdentifier(cursor + 2),
                file.text(cursor + 2) == taskName, file.isPunct(cursor + 3, ASCII.closeParen),
                let position = wrapper.parameters.firstIndex(of: file.text(cursor)), forwarded == nil
            {
                forwarded = position
            } else if !isLogging(statementAt: cursor, in: file) {
                return nil
            }
            cursor += 1
        }
        return forwarded
    }

    /// Whether the statement at `index` is a call of a logger (`print(…)`, `NSLog(…)`, `logger.debug(…)`).
    private func isLogging(statementAt index: Int, in file: SourceFile) -> Bool {
        guard file.isIdentifier(index) else { return false }
        if file.isPunct(index + 1, ASCII.openParen) { return CompletionPaths.isLoggingCall(file.text(index)) }
        var cursor = index
        while file.isPunct(cursor + 1, ASCII.dot), file.isIdentifier(cursor + 2) { cursor += 2 }
        return cursor > index && file.isPunct(cursor + 1, ASCII.openParen)
            && CompletionPaths.isLoggingCall(file.text(cursor))
    }

    /// The handler a call of the wrapper passes for its parameter at `parameter`: a closure written in the call (or
    /// after it), or a function named there.
    private func argument(
        _ parameter: Int, of wrapper: CallableInfo, passedBy call: CallInfo, in file: SourceFile, fileIndex: Int
    ) -> Handler? {
        let token = Int(call.token)
        var arguments: [Argument] = []
        var after = token + 1
        if file.isPunct(token + 1, ASCII.openParen) {
            let close = Int(file.matching[token + 1])
            guard close > token + 1 else { return nil }
            arguments = file.arguments(ofCallAt: token + 1)
            after = close + 1
        }
        let positions = ProjectIndex.parameterPositions(of: call.labels, in: wrapper)
        if let position = positions?.firstIndex(of: parameter), position < arguments.count {
            let argument = arguments[position]
            if file.isPunct(argument.start, ASCII.openBrace) {
                return closureHandler(file, open: argument.start, fileIndex: fileIndex)
            }
            return functionHandler(file, argument: argument, fileIndex: fileIndex)
        }
        guard call.hasTrailingClosure, parameter == wrapper.parameters.count - 1, file.isPunct(after, ASCII.openBrace)
        else { return nil }
        return closureHandler(file, open: after, fileIndex: fileIndex)
    }

    private func closureHandler(_ file: SourceFile, open: Int, fileIndex: Int) -> Handler {
        let names = CompletionPaths.closureParameters(file, open: open).names
        return Handler(file: fileIndex, open: open, taskName: names.first ?? "$0")
    }

    /// `launchHandler: handleRefresh`, `launchHandler: self.handleRefresh(task:)`.
    private func functionHandler(_ file: SourceFile, argument: Argument, fileIndex: Int) -> Handler? {
        var nameToken = -1
        var labels: [String] = []
        var cursor = argument.start
        while cursor < argument.end {
            if file.isIdentifier(cursor), file.word(cursor) != .`self` { nameToken = cursor }
            if file.isPunct(cursor, ASCII.openParen) {
                var label = cursor + 1
                while label < argument.end, file.isIdentifier(label), file.isPunct(label + 1, ASCII.colon) {
                    labels.append(file.text(label))
                    label += 2
                }
                break
            }
            cursor += 1
        }
        guard nameToken >= 0,
            let callee = project.callee(file: fileIndex, token: nameToken, name: file.text(nameToken), labels: labels)
        else { return nil }
        let info = project.index.callable(callee)
        let calleeFile = project.file(Int(callee.file))
        let scope = calleeFile.scopes[Int(info.scope)]
        let open = Int(scope.open)
        guard open >= 0 else { return nil }
        return Handler(
            file: Int(callee.file), open: open, taskName: info.parameters.first ?? "task", function: Int(scope.name))
    }
}

/// The body of a launch handler, as tokens of one file.
struct HandlerRegion {
    var file: Int32
    var open: Int32
    var close: Int32

    func contains(_ file: Int32, _ token: Int32) -> Bool { file == self.file && token > open && token < close }
}
