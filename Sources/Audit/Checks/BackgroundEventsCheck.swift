/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: the completion handler is kept and called
/// from `urlSessionDidFinishEvents(forBackgroundURLSession:)`, once the session has delivered its events, not
/// while the callback runs.
struct BackgroundEventsCheck {
    let project: Project

    /// Closures that run the code they are given soon and on their own, so a call in them is still a call now.
    private static let immediateClosures: Set<String> = ["async", "asyncAfter", "sync", "Task", "detached", "run"]
    /// A session's `async` conveniences, which answer once a transfer is done.
    private static let sessionConveniences: Set<String> = ["data", "download", "upload", "bytes"]

    /// The names the sources bind a `URLSession` to, in any file.
    private let sessionNames: Set<String>

    init(project: Project) {
        self.project = project
        var names: Set<String> = []
        for summary in project.index.files {
            for session in summary.sessions where session.isSession {
                if let binding = session.binding { names.insert(binding.name) }
            }
        }
        sessionNames = names
    }

    func run(into findings: inout [Finding]) {
        // The properties the callbacks keep their handler in, judged once all are known.
        var kept: Set<String> = []
        defer { checkTaskCallbacks(calling: kept, into: &findings) }
        for fileIndex in 0..<project.fileCount {
            let summary = project.summary(fileIndex)
            guard !summary.backgroundEventHandlers.isEmpty else { continue }
            for callable in summary.backgroundEventHandlers {
                let info = summary.callables[Int(callable)]
                if info.isAsync, info.parameters.count == 2 {
                    checkAsync(info, file: fileIndex, into: &findings)
                    continue
                }
                guard info.parameters.count == 3 else { continue }
                let handler = info.parameters[2]
                let id = CallableID(file: Int32(fileIndex), index: callable)
                var visiting: Set<CallableID> = []
                // A body that also stores the handler or passes it on somewhere: a direct call on another path is
                // then the case where no session of the app has events to deliver, where calling it at once is right.
                guard let early = earlyCalls(of: handler, in: id, depth: 0, visiting: &visiting) else {
                    keptProperties(of: handler, in: id, depth: 0, into: &kept)
                    continue
                }
                for site in early {
                    let file = project.file(Int(site.file))
                    let token = Int(site.token)
                    let name = file.text(token)
                    let place =
                        site.file == Int32(fileIndex) && file.callable(containing: token) == Int(info.scope)
                        ? "while handleEventsForBackgroundURLSession runs"
                        : "by `\(project.index.callable(callableID(containing: site)).signature)`, which "
                            + "handleEventsForBackgroundURLSession passes it to, before returning"
                    findings.append(
                        Finding(
                            rule: .backgroundEventsCompletionTooEarly, at: file.location(token),
                            message: "`\(name)` is called \(place), before the session has delivered its events; "
                                + "keep it and call it from urlSessionDidFinishEvents(forBackgroundURLSession:)."))
                }
            }
        }
    }

    /// The `async` form completes when it returns: a body that awaits nothing returns at once, before any session
    /// has delivered its events (one that waits — for a continuation resumed from `urlSessionDidFinishEvents` — is
    /// not judged).
    private func checkAsync(_ info: CallableInfo, file fileIndex: Int, into findings: inout [Finding]) {
        let file = project.file(fileIndex)
        let body = file.scopes[Int(info.scope)]
        guard body.open >= 0, body.head >= 0 else { return }
        let close = min(Int(body.close), file.count)
        if ((Int(body.open) + 1)..<close).contains(where: { file.word($0) == .await }) { return }
        findings.append(
            Finding(
                rule: .backgroundEventsCompletionTooEarly, at: file.location(Int(body.head)),
                message: "The `async` handleEventsForBackgroundURLSession awaits nothing, so it returns — which "
                    + "completes it — while it runs, before the session has delivered its events; await a "
                    + "continuation resumed from urlSessionDidFinishEvents(forBackgroundURLSession:)."))
    }

    /// The calls of closure parameter `handler` of `callable` made while it runs — in its body, or in a project
    /// function it passes the handler to (three calls deep) — or `nil` when the handler is kept (stored, or passed
    /// to code outside the sources or too deep to follow), so that whoever keeps it calls it later.
    private func earlyCalls(of handler: String, in id: CallableID, depth: Int, visiting: inout Set<CallableID>)
        -> [Site]?
    {
        guard depth <= 3, visiting.insert(id).inserted else { return nil }
        defer { visiting.remove(id) }
        let info = project.index.callable(id)
        let fileIndex = Int(id.file)
        let file = project.file(fileIndex)
        let body = file.scopes[Int(info.scope)]
        guard body.open >= 0 else { return nil }
        var sites: [Site] = []
        for token in (Int(body.open) + 1)..<min(Int(body.close), file.count)
        where file.isIdentifier(token) && !file.isPunct(token - 1, ASCII.dot) && file.text(token) == handler {
            let called =
                file.isPunct(token + 1, ASCII.openParen)
                || (file.isPunct(token + 1, ASCII.question) && file.isPunct(token + 2, ASCII.openParen))
            if called {
                if runsNow(token, in: file, body: Int(info.scope)) { sites.append(Site(fileIndex, token)) }
                continue
            }
            if isUnwrapped(token, in: file) { continue }
            // Passed on: followed into a project function that runs it now; anything else keeps it.
            guard let (callee, parameter) = passed(token, in: file, fileIndex: fileIndex),
                runsNow(token, in: file, body: Int(info.scope)),
                let inner = earlyCalls(of: parameter, in: callee, depth: depth + 1, visiting: &visiting)
            else { return nil }
            sites += inner
        }
        return sites
    }

    /// The stored properties the handler is kept in: assigned in the callback (`self.pending = handler`,
    /// `Downloads.shared.pending = handler`) or in a project function it is passed to (`store.keep(handler)`, two
    /// calls deep).
    private func keptProperties(of handler: String, in id: CallableID, depth: Int, into kept: inout Set<String>) {
        guard depth <= 2 else { return }
        let info = project.index.callable(id)
        let file = project.file(Int(id.file))
        let body = file.scopes[Int(info.scope)]
        guard body.open >= 0 else { return }
        for token in (Int(body.open) + 1)..<min(Int(body.close), file.count)
        where file.isIdentifier(token) && !file.isPunct(token - 1, ASCII.dot) && file.text(token) == handler {
            let target = token - 2
            if file.isPunct(token - 1, ASCII.equals), !file.isPunct(target, ASCII.equals), file.isIdentifier(target),
                file.word(target - 1) != .let, file.word(target - 1) != .var, file.text(target) != handler
            {
                kept.insert(file.text(target))
            } else if let (callee, parameter) = passed(token, in: file, fileIndex: Int(id.file)) {
                keptProperties(of: parameter, in: callee, depth: depth + 1, into: &kept)
            }
        }
    }

    /// Reports each call of a property in `kept` from a session delegate callback other than
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)` — a task's `urlSession(_:task:didCompleteWithError:)`,
    /// a download's `didFinishDownloadingTo` — made as the callback runs: one task's end comes before the session
    /// has delivered the rest of its events. A parameter or a local of the callback's own of that name is not the
    /// property.
    private func checkTaskCallbacks(calling kept: Set<String>, into findings: inout [Finding]) {
        guard !kept.isEmpty else { return }
        for (fileIndex, summary) in project.index.files.enumerated() {
            let callbacks = summary.callables.filter { $0.kind == .function && $0.name == "urlSession" }
            guard !callbacks.isEmpty else { continue }
            let file = project.file(fileIndex)
            for info in callbacks {
                let body = file.scopes[Int(info.scope)]
                guard body.open >= 0 else { continue }
                let range = (Int(body.open) + 1)..<min(Int(body.close), file.count)
                let locals = Set(
                    range.lazy.filter { (file.word($0) == .let || file.word($0) == .var) && file.isIdentifier($0 + 1) }
                        .map { file.text($0 + 1) })
                for token in range
                where file.isIdentifier(token) && kept.contains(file.text(token)) {
                    let name = file.text(token)
                    let called =
                        file.isPunct(token + 1, ASCII.openParen)
                        || (file.isPunct(token + 1, ASCII.question) && file.isPunct(token + 2, ASCII.openParen))
                    let onSelf = !file.isPunct(token - 1, ASCII.dot) || file.word(token - 2) == .`self`
                    guard called, !info.parameters.contains(name), !onSelf || !locals.contains(name),
                        runsNow(token, in: file, body: Int(info.scope))
                    else { continue }
                    findings.append(
                        Finding(
                            rule: .backgroundEventsCompletionTooEarly, at: file.location(token),
                            message: "`\(name)`, the completion handler handleEventsForBackgroundURLSession kept, is "
                                + "called from `\(info.signature)`, when one task has finished, before the session "
                                + "has delivered all its events; call it from "
                                + "urlSessionDidFinishEvents(forBackgroundURLSession:)."))
                }
            }
        }
    }

    /// Whether the name at `token` is unwrapped under its own name (`if let handler = handler`, `if let handler`,
    /// either side): the same handler, still called or passed on under that name.
    private func isUnwrapped(_ token: Int, in file: SourceFile) -> Bool {
        let name = file.text(token)
        let declared = file.word(token - 1) == .let || file.word(token - 1) == .var
        if declared, file.isPunct(token + 1, ASCII.equals), file.isIdentifier(token + 2), file.text(token + 2) == name {
            return true
        }
        if declared, file.isPunct(token + 1, ASCII.openBrace) || file.isPunct(token + 1, ASCII.comma) { return true }
        return file.isPunct(token - 1, ASCII.equals) && file.isIdentifier(token - 2) && file.text(token - 2) == name
            && (file.word(token - 3) == .let || file.word(token - 3) == .var)
    }

    /// For a name passed as an argument (`helper(completion: handler)`), the project function it is passed to and the
    /// parameter's name there.
    private func passed(_ token: Int, in file: SourceFile, fileIndex: Int) -> (CallableID, String)? {
        guard file.isPunct(token + 1, ASCII.closeParen) || file.isPunct(token + 1, ASCII.comma) else { return nil }
        var open = token - 1
        while open > 0, !file.isPunct(open, ASCII.openParen) {
            if file.isPunct(open, ASCII.closeParen) || file.isPunct(open, ASCII.closeBracket) {
                open = Int(file.matching[open])
                guard open >= 0 else { return nil }
            } else if file.isPunct(open, ASCII.openBrace) || file.isPunct(open, ASCII.closeBrace)
                || file.isPunct(open, ASCII.openBracket)
            {
                return nil
            }
            open -= 1
        }
        guard open > 0, file.isIdentifier(open - 1) else { return nil }
        let arguments = file.arguments(ofCallAt: open)
        guard let position = arguments.firstIndex(where: { $0.start == token && $0.end == token + 1 }) else {
            return nil
        }
        let labels = arguments.map { $0.label >= 0 ? file.text($0.label) : "_" }
        guard
            let callee = project.callee(file: fileIndex, token: open - 1, name: file.text(open - 1), labels: labels),
            let positions = ProjectIndex.parameterPositions(of: labels, in: project.index.callable(callee))
        else { return nil }
        let parameters = project.index.callable(callee).parameters
        guard position < positions.count, positions[position] < parameters.count else { return nil }
        return (callee, parameters[positions[position]])
    }

    private func callableID(containing site: Site) -> CallableID {
        let file = project.file(Int(site.file))
        let scope = file.callable(containing: Int(site.token)) ?? 0
        let callables = project.summary(Int(site.file)).callables
        return CallableID(file: site.file, index: Int32(callables.firstIndex { Int($0.scope) == scope } ?? 0))
    }

    /// Whether `name` is a method called on a session the sources make (`session.getTasksWithCompletionHandler { … }`)
    /// other than one that makes a task: its closure runs when the session answers the call, which does not wait for
    /// the session's events, delivered to its delegate and ended by `urlSessionDidFinishEvents`.
    /// The session may be optional (`backgroundSession?.getAllTasks { … }`).
    private func isSessionAnswer(_ name: Int, in file: SourceFile) -> Bool {
        guard file.isPunct(name - 1, ASCII.dot) else { return false }
        let receiver = file.isPunct(name - 2, ASCII.question) ? name - 3 : name - 2
        guard file.isIdentifier(receiver),
            !file.isPunct(receiver - 1, ASCII.dot)
                || (file.word(receiver - 2) == .`self` && file.isPunct(receiver - 1, ASCII.dot))
        else { return false }
        let method = file.text(name)
        guard !method.hasSuffix("Task"), !Self.sessionConveniences.contains(method) else { return false }
        return sessionNames.contains(file.text(receiver))
    }

    /// Whether the code at `token` runs as part of the callback: not inside a closure kept for later or a local
    /// function, only inside dispatches that run soon by themselves.
    private func runsNow(_ token: Int, in file: SourceFile, body: Int) -> Bool {
        var scope = Int(file.scopeOf[token])
        while scope != body, scope > 0 {
            let current = file.scopes[scope]
            switch current.kind {
            case .closure:
                guard current.name >= 0,
                    Self.immediateClosures.contains(file.text(Int(current.name)))
                        || isSessionAnswer(Int(current.name), in: file)
                else { return false }
            case .function, .property, .type:
                return false
            default:
                break
            }
            scope = Int(current.parent)
        }
        return scope == body
    }
}
