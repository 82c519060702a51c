/// A delegate callback that must finish something before it returns.
enum PushCallback: Sendable {
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`, completion-handler form; `completion`
    /// is the parameter's internal name.
    case silentPush(completion: String)
    /// `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)` and its older and newer forms and spellings.
    case voip(payload: String)

    init?(_ callable: CallableInfo) {
        // The delegate's callbacks return nothing: a method named like one that returns a value (`-> Bool`, whether
        // it handled the push) is a library's hook, whose caller acts on what it returns.
        guard callable.kind == .function, !callable.returnsValue else { return nil }
        let labels = callable.labels
        if callable.name == "application", labels.count == 3, labels[1] == "didReceiveRemoteNotification",
            labels[2] == "fetchCompletionHandler"
        {
            // The `async` form returns its result; it has no completion handler to forget.
            guard !callable.isAsync else { return nil }
            self = .silentPush(completion: callable.parameters[2])
            return
        }
        // A library's own entry for the push its host app forwards, completion handler and all
        // (`public func applicationDidReceiveRemoteNotification(userInfo:fetchCompletionHandler:)`): what the
        // library's README asks the app delegate to call, and nothing in the library's sources calls.
        if callable.isPublic, !callable.isAsync, let position = labels.firstIndex(of: "fetchCompletionHandler"),
            position < callable.takesClosure.count, callable.takesClosure[position],
            callable.name.lowercased().contains("remotenotification") || labels.contains("didReceiveRemoteNotification")
        {
            self = .silentPush(completion: callable.parameters[position])
            return
        }
        // Swift 2 imported the same delegate method as `pushRegistry(_:didReceiveIncomingPushWithPayload:forType:)`.
        if callable.name == "pushRegistry", labels.count >= 3,
            labels[1] == "didReceiveIncomingPushWith" || labels[1] == "didReceiveIncomingVoIPPushWith"
                || labels[1] == "didReceiveIncomingPushWithPayload"
        {
            self = .voip(payload: callable.parameters[1])
            return
        }
        return nil
    }
}

/// The rules about push callbacks: a silent push calls its completion handler on every path, a VoIP push reports
/// a call to CallKit on every path.
struct PushCheck {
    let project: Project

    func run(into findings: inout [Finding]) {
        let silent = CompletionPaths(project: project, obligation: .completionHandlerCalled)
        let voip = CompletionPaths(project: project, obligation: .incomingCallReported)
        // PushKit calls the deprecated `pushRegistry(_:didReceiveIncomingPushWith:for:)` only when the delegate has
        // no form with a completion handler (or an `async` one): beside one, it never runs.
        var typesWithNewerForm: Set<String> = []
        for fileIndex in 0..<project.fileCount where project.summary(fileIndex).needsDetailedPass {
            for callable in project.summary(fileIndex).callables {
                guard case .voip = PushCallback(callable), callable.labels.count > 3 || callable.isAsync,
                    let type = callable.typeName
                else { continue }
                typesWithNewerForm.insert(type)
            }
        }
        let orphanedDelegates = orphanedRegistryDelegates()
        let inviteDelegates = callInviteDelegates()
        for fileIndex in 0..<project.fileCount {
            let summary = project.summary(fileIndex)
            guard summary.needsDetailedPass else { continue }
            for (position, callable) in summary.callables.enumerated() {
                if let type = callable.typeName, inviteDelegates.contains(type), callable.name == "callInviteReceived",
                    callable.parameters.count == 1, callable.open >= 0
                {
                    // The invite an SDK given the push and this object as its delegate calls back with.
                    let outcome = voip.analyzeRoot(
                        file: fileIndex, open: Int(callable.open), aliases: [callable.parameters[0]])
                    guard outcome.mentions else { continue }
                    let file = project.file(fileIndex)
                    report(
                        outcome, rule: .voipPushNotReported,
                        at: file.location(Int(file.scopes[Int(callable.scope)].head)),
                        owed: "reportNewIncomingCall", what: "the VoIP push this call invite came with",
                        callable: callable, into: &findings)
                    continue
                }
                guard let callback = PushCallback(callable) else { continue }
                // A library entry the sources call themselves (an example app's delegate) is judged from its caller.
                if case .silentPush = callback, callable.name != "application",
                    !project.index.callers(of: CallableID(file: Int32(fileIndex), index: Int32(position))).isEmpty
                {
                    continue
                }
                let file = project.file(fileIndex)
                let scope = file.scopes[Int(callable.scope)]
                let open = Int(scope.open)
                guard open >= 0 else { continue }
                let location = file.location(Int(scope.head))
                switch callback {
                case .silentPush(let completion):
                    let outcome = silent.analyzeRoot(file: fileIndex, open: open, aliases: [completion])
                    report(
                        outcome, rule: .silentPushCompletionNotCalled, at: location, owed: "`\(completion)`",
                        what: "the silent push", callable: callable, into: &findings)
                case .voip(let payload):
                    if callable.labels.count == 3, !callable.isAsync,
                        let type = callable.typeName, typesWithNewerForm.contains(type)
                    {
                        continue
                    }
                    if let type = callable.typeName, orphanedDelegates.contains(type) { continue }
                    let outcome = voip.analyzeRoot(file: fileIndex, open: open, aliases: [payload])
                    report(
                        outcome, rule: .voipPushNotReported, at: location, owed: "reportNewIncomingCall",
                        what: "the VoIP push", callable: callable, into: &findings)
                }
            }
        }
    }

    /// The calls the index joined under `name` that are written with parentheses, each with its file's tokens and the
    /// token of its name.
    private func calls(named name: String) -> [(id: CallID, call: CallInfo, file: SourceFile, token: Int)] {
        project.index.calls(named: name).compactMap { id in
            let call = project.index.call(id)
            let file = project.file(Int(id.file))
            let token = Int(call.token)
            return file.isPunct(token + 1, ASCII.openParen) ? (id, call, file, token) : nil
        }
    }

    /// The types that hand a VoIP push's payload to a calling SDK with themselves as its delegate
    /// (`TwilioVoiceSDK.handleNotification(payload.dictionaryPayload, delegate: self, delegateQueue: nil)`): the SDK
    /// calls back their `callInviteReceived(callInvite:)` with the call the push carries, which then owes CallKit the
    /// report the push callback handed on.
    private func callInviteDelegates() -> Set<String> {
        var types: Set<String> = []
        for (id, call, file, token) in calls(named: "handleNotification") {
            let handsSelf = file.arguments(ofCallAt: token + 1).contains {
                $0.label >= 0 && file.is($0.label, "delegate") && $0.end - $0.start == 1
                    && file.word($0.start) == .`self`
            }
            guard handsSelf, let type = project.index.callable(CallableID(file: id.file, index: call.caller)).typeName
            else { continue }
            types.insert(type)
        }
        return types
    }

    /// The types whose push registry is made only in code nothing runs (`func registerForVoIPPushes()` that nothing
    /// calls), while every registry live code makes has its maker as its delegate (`registry.delegate = self`): no
    /// registry ever calls such a type's VoIP callback, whose paths then owe nothing.
    private func orphanedRegistryDelegates() -> Set<String> {
        var dead: Set<String> = []
        var live: Set<String> = []
        for (id, call, file, token) in calls(named: "PKPushRegistry") {
            let maker = project.index.callable(CallableID(file: id.file, index: call.caller))
            guard let type = maker.typeName, maker.open >= 0, Int(maker.open) < file.count else { return [] }
            if project.isInDeadCode(file: Int(id.file), line: file.line(token)) {
                dead.insert(type)
                continue
            }
            // A registry live code makes for another object's callbacks could be handed to any type.
            let body = Int(maker.open)..<max(Int(file.matching[Int(maker.open)]), Int(maker.open))
            guard
                body.contains(where: {
                    file.is($0, "delegate") && file.isPunct($0 + 1, ASCII.equals) && file.word($0 + 2) == .`self`
                })
            else { return [] }
            live.insert(type)
        }
        return dead.subtracting(live)
    }

    private func report(
        _ outcome: PathOutcome, rule: Rule, at location: SourceLocation, owed: String, what: String,
        callable: CallableInfo, into findings: inout [Finding]
    ) {
        guard outcome.mentions else {
            findings.append(
                Finding(rule: rule, at: location, message: "`\(callable.signature)` never calls \(owed)."))
            return
        }
        func add(_ sites: [Site], _ message: (SourceFile, Int) -> String) {
            for site in Set(sites).sorted(by: { ($0.file, $0.token) < ($1.file, $1.token) }) {
                let file = project.file(Int(site.file))
                let token = Int(site.token)
                findings.append(Finding(rule: rule, at: file.location(token), message: message(file, token)))
            }
        }
        add(outcome.leaks) { file, token in HandlerCheck.leakMessage(file, token, owed: owed, what: what) }
        add(outcome.overwrites) { file, token in
            "\(owed) is kept in `\(file.text(token))` without a look at what it held: \(what) that comes before the "
                + "last one is finished replaces that one's handler, which is then never called."
        }
        add(outcome.skippedHandOvers) { file, token in
            rule == .voipPushNotReported
                ? "`\(file.text(token))`, which reports the call, is called through an optional chain: when it is nil "
                    + "the call is skipped, and the VoIP push is never reported."
                : "`\(file.text(token))` is called through an optional chain: when it is nil the call is skipped, and "
                    + "\(owed), handed to it, is never called."
        }
    }
}
