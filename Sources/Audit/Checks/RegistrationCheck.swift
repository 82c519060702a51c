/// The cross-file rules about task identifiers: where handlers are registered, whether each registered identifier
/// is submitted and each submitted one registered, duplicates, and the Info.plist's permitted list.
struct RegistrationCheck {
    let project: Project

    private struct Occurrence {
        var file: Int
        var registration: RegistrationInfo
        var identifiers: [ResolvedIdentifier]
    }

    private struct RequestOccurrence {
        var file: Int
        var request: RequestInfo
        var identifiers: [ResolvedIdentifier]
        var submitted: Bool
    }

    func run(into findings: inout [Finding]) {
        let index = project.index
        var registrations: [Occurrence] = []
        var requests: [RequestOccurrence] = []
        for (fileIndex, summary) in index.files.enumerated() {
            for registration in summary.registrations {
                let callID = CallID(file: Int32(fileIndex), index: registration.call)
                let identifiers = index.resolveIdentifier(
                    registration.identifier, in: index.caller(of: callID), origin: callID)
                registrations.append(Occurrence(file: fileIndex, registration: registration, identifiers: identifiers))
            }
            for request in summary.requests {
                let callID = CallID(file: Int32(fileIndex), index: request.call)
                let identifiers = index.resolveIdentifier(
                    request.identifier, in: index.caller(of: callID), origin: callID)
                requests.append(
                    RequestOccurrence(
                        file: fileIndex, request: request, identifiers: identifiers,
                        submitted: index.isSubmitted(fromCallable: index.caller(of: callID))))
            }
        }
        checkLaunch(registrations, into: &findings)
        // A watch app's `.backgroundTask(.appRefresh(…))` runs when WatchKit's `scheduleBackgroundRefresh(…)` asks,
        // whatever its identifier; BGTaskScheduler and its permitted list play no part on watchOS.
        var watchRefreshes: [Occurrence] = []
        registrations.removeAll { occurrence in
            guard Self.isWatchRefresh(occurrence, in: project) else { return false }
            watchRefreshes.append(occurrence)
            return true
        }
        if !watchRefreshes.isEmpty, index.calls(named: "scheduleBackgroundRefresh").isEmpty {
            reportUnmatched(watchRefreshes.flatMap(\.identifiers), by: [], .registeredNeverSubmitted, into: &findings) {
                value in
                "The watch app's \"\(value)\" refresh has an action, but nothing calls WatchKit's "
                    + "scheduleBackgroundRefresh(withPreferredDate:userInfo:scheduledCompletion:), so it never runs."
            }
        }
        let registered = registrations.flatMap(\.identifiers)
        let submitted = requests.filter(\.submitted).flatMap(\.identifiers)
        reportUnmatched(registered, by: submitted, .registeredNeverSubmitted, into: &findings) { value in
            "\"\(value)\" has a launch handler, but no code submits a BGTaskRequest with this identifier, so the task "
                + "never runs."
        }
        let outside = outsideRegistrations()
        reportOutsideUnsubmitted(outside, submitted: submitted, into: &findings)
        checkChainStarts(registrations, requests, into: &findings)
        // A registration nothing can run (in a type nothing makes, a function nothing calls, a wrapper no code calls)
        // registers nothing.
        let live = registrations.filter {
            !project.isUnreachable(index.caller(of: CallID(file: Int32($0.file), index: $0.registration.call)))
        }
        let registeredAnywhere = Set(
            registered.compactMap { if case .known(let value) = $0.value { value } else { nil } })
        reportUnmatched(submitted, by: live.flatMap(\.identifiers), .submittedNeverRegistered, into: &findings) {
            value in
            "A request for \"\(value)\" is submitted, but no launch handler is registered for it"
                + (registeredAnywhere.contains(value) ? " (it is registered only in code nothing runs)" : "")
                + "; the submit raises \"No launch handler registered\"."
        }
        checkDuplicates(live, into: &findings)
        checkPermitted(live, outside: outside, into: &findings)
    }

    private static func display(_ value: IdentifierValue) -> String {
        switch value {
        case .known(let text): "\"\(text)\""
        case .unknown(let expression): "`\(expression)`"
        }
    }

    // MARK: register-outside-launch

    private func checkLaunch(_ registrations: [Occurrence], into findings: inout [Finding]) {
        let index = project.index
        let requests = project.requestKinds
        for occurrence in registrations
        where occurrence.registration.kind == .scheduler {
            let callID = CallID(file: Int32(occurrence.file), index: occurrence.registration.call)
            let call = index.call(callID)
            // A continued-processing task may be registered at any time, also through the app's own
            // `register(forTaskWithIdentifier:…)`, or for an identifier only continued-processing requests name.
            if project.registersContinuedTask(callID) { continue }
            if !occurrence.identifiers.isEmpty,
                occurrence.identifiers.allSatisfy({
                    if case .known = $0.value { requests[$0.value] == [.continued] } else { false }
                })
            {
                continue
            }
            let context: LaunchContext =
                call.deferredBy.map { .afterLaunch(reason: "inside \($0), which runs after launch has finished") }
                ?? index.launchContext(of: index.caller(of: callID))
            guard case .afterLaunch(let reason) = context else { continue }
            // A function that registers on its first call only (`guard !registered else { return }` … `registered =
            // true`), and is called at launch: every later call finds the flag set and registers nothing.
            if call.deferredBy == nil, registersOnce(callID), index.reachedAtLaunch(index.caller(of: callID)) {
                continue
            }
            let identifier =
                occurrence.identifiers.first.map { Self.display($0.value) }
                ?? occurrence.registration.identifier.display
            findings.append(
                Finding(
                    rule: .registerOutsideLaunch, at: index.location(of: callID),
                    message: "The launch handler for \(identifier) is registered \(reason)."))
        }
    }

    /// Whether the registration at `callID` sits behind a test of a flag its function sets to `true`: `guard !flag
    /// else { return }` or `if flag { return }` before it, or an `if !flag { … }` around it, with `flag = true` in the
    /// function (the flag a stored or static property, named bare or through `self` or `Self`).
    private func registersOnce(_ callID: CallID) -> Bool {
        let index = project.index
        let file = project.file(Int(callID.file))
        let call = Int(index.call(callID).token)
        guard let callable = file.callable(containing: call) else { return false }
        let scope = file.scopes[callable]
        let (open, close) = (Int(scope.open), min(Int(scope.close), file.count))
        guard open >= 0, open < call, call < close else { return false }
        var flags: Set<String> = []
        var token = open + 1
        while token < call {
            if file.word(token) == .guard || file.word(token) == .if, let flag = flagTested(after: token, in: file) {
                flags.insert(flag)
            }
            token += 1
        }
        guard !flags.isEmpty else { return false }
        return (open + 1..<close).contains { token in
            file.isIdentifier(token) && flags.contains(file.text(token)) && file.isPunct(token + 1, ASCII.equals)
                && !file.isPunct(token + 2, ASCII.equals) && file.is(token + 2, "true")
        }
    }

    /// The flag a condition starting after `keyword` tests alone: `!flag`, `!self.flag`, `!Self.flag`, or `flag` (as
    /// `if flag { return }`).
    private func flagTested(after keyword: Int, in file: SourceFile) -> String? {
        var token = keyword + 1
        let negated = file.isPunct(token, ASCII.bang)
        if negated { token += 1 }
        if file.is(token, "self") || file.is(token, "Self"), file.isPunct(token + 1, ASCII.dot) { token += 2 }
        guard file.isIdentifier(token) else { return nil }
        let next = token + 1
        if negated, file.word(next) == .else || file.isPunct(next, ASCII.openBrace) { return file.text(token) }
        if !negated, file.word(keyword) == .if, file.isPunct(next, ASCII.openBrace), file.word(next + 1) == .return {
            return file.text(token)
        }
        return nil
    }

    // MARK: registered-never-submitted / submitted-never-registered

    /// Reports each known identifier of `identifiers` that none of `others` names, once: unless one of `others` is
    /// built from a value the sources cannot tell, which could be any identifier, or the identifier is named in a
    /// source the audit does not parse.
    private func reportUnmatched(
        _ identifiers: [ResolvedIdentifier], by others: [ResolvedIdentifier], _ rule: Rule,
        into findings: inout [Finding], message: (String) -> String
    ) {
        var named: Set<String> = []
        for other in others {
            guard case .known(let value) = other.value else { return }
            named.insert(value)
        }
        var reported: Set<ResolvedIdentifier> = []
        for identifier in identifiers {
            // Named in a source the audit does not parse, it may be registered or submitted there.
            guard case .known(let value) = identifier.value, !named.contains(value), !namedElsewhere(value),
                reported.insert(identifier).inserted
            else { continue }
            findings.append(
                Finding(rule: rule, at: project.index.location(of: identifier.origin), message: message(value)))
        }
    }

    /// Whether `occurrence` is SwiftUI's `.backgroundTask(.appRefresh(…))` in a watch app's sources: a folder of the
    /// path named as Xcode names a watch app's or extension's (`Name Watch App`, `Name WatchKit Extension`,
    /// `watchOS`, `NameWatch`), or a file that imports WatchKit and not UIKit.
    private static func isWatchRefresh(_ occurrence: Occurrence, in project: Project) -> Bool {
        guard occurrence.registration.kind == .sceneModifier else { return false }
        let inWatchFolder = project.summary(occurrence.file).path.split(separator: "/").dropLast().contains { folder in
            folder.hasSuffix("Watch App") || folder.contains("WatchKit") || folder.hasSuffix("Watch Extension")
                || folder == "watchOS" || folder.hasSuffix("Watch")
        }
        return inWatchFolder || importsWatchKitAlone(project.file(occurrence.file))
    }

    /// Whether `file` imports WatchKit and not UIKit: code only a watch app builds.
    private static func importsWatchKitAlone(_ file: SourceFile) -> Bool {
        var watchKit = false
        for token in 0..<file.count where file.is(token, "import") && file.isIdentifier(token + 1) {
            switch file.text(token + 1) {
            case "WatchKit": watchKit = true
            case "UIKit": return false
            default: continue
            }
        }
        return watchKit
    }

    // MARK: chain-never-starts

    /// A registered identifier whose every submitted request is built inside its own handler, or in functions
    /// reached only from there: nothing outside the handler makes the first request, so the handler never runs.
    private func checkChainStarts(
        _ registrations: [Occurrence], _ requests: [RequestOccurrence], into findings: inout [Finding]
    ) {
        let submitted = requests.filter(\.submitted)
        // A request whose identifier the sources cannot tell could be the first request of any chain it may fit:
        // any at all, or, for one built from literal parts (`"\(bundle).refresh"`, `prefix + ".\(index)"`), those
        // its parts fit.
        var unknown: [String?] = []
        for request in submitted {
            for identifier in request.identifiers {
                if case .unknown(let text) = identifier.value { unknown.append(PermittedIdentifiers.pattern(of: text)) }
            }
        }
        guard !unknown.contains(nil) else { return }
        var regions: [IdentifierValue: [HandlerRegion]] = [:]
        let handlers = HandlerCheck(project: project)
        for occurrence in registrations {
            guard let region = handlers.region(of: occurrence.registration, file: occurrence.file) else { continue }
            for identifier in occurrence.identifiers { regions[identifier.value, default: []].append(region) }
        }
        var reported: Set<IdentifierValue> = []
        for occurrence in registrations {
            for identifier in occurrence.identifiers {
                guard case .known(let value) = identifier.value, let inside = regions[identifier.value],
                    !unknown.contains(where: { PermittedIdentifiers.matches(value, pattern: $0!) })
                else {
                    continue
                }
                let own = submitted.filter { $0.identifiers.contains { $0.value == identifier.value } }
                guard !own.isEmpty, !reported.contains(identifier.value) else { continue }
                let reaches = own.map { request in
                    submitReach(CallID(file: Int32(request.file), index: request.request.call), regions: inside)
                }
                guard !reaches.contains(.outside) else { continue }
                reported.insert(identifier.value)
                let location = project.index.location(of: identifier.origin)
                // No submit runs at all, not even from the handler: the identifier is as good as never submitted.
                if !reaches.contains(.handlerOnly) {
                    findings.append(
                        Finding(
                            rule: .registeredNeverSubmitted, at: location,
                            message: "\"\(value)\" has a launch handler, but it is submitted only from code nothing "
                                + "runs (a function nothing calls), so the task never runs."))
                    continue
                }
                findings.append(
                    Finding(
                        rule: .chainNeverStarts, at: location,
                        message: "\"\(value)\" is submitted only from inside its own launch handler or from code "
                            + "nothing runs; no code at launch, on a move to the background or on a user action submits "
                            + "the first request, so the handler never runs."))
            }
        }
    }

    /// Where a submit can run from.
    private enum SubmitReach {
        /// From outside the handler's regions: a first request can be made.
        case outside
        /// Only from inside them.
        case handlerOnly
        /// From nowhere: only from code nothing runs.
        case nowhere
    }

    /// Whether the call `id` can run other than from inside `regions` (made outside them from a callable that is
    /// itself reached from outside, or that nothing in the sources calls: the system, a selector or code the audit
    /// cannot see calls it), only from inside them, or not at all.
    private func submitReach(_ id: CallID, regions: [HandlerRegion]) -> SubmitReach {
        let index = project.index
        var visited: Set<CallableID> = []
        var work: [(call: CallID, depth: Int)] = [(id, 0)]
        var fromHandler = false
        while let (call, depth) = work.popLast() {
            let token = index.call(call).token
            if regions.contains(where: { $0.contains(call.file, token) }) {
                fromHandler = true
                continue
            }
            let caller = index.caller(of: call)
            guard visited.insert(caller).inserted else { continue }
            let info = index.callable(caller)
            // A function passed as the launch handler is the handler itself.
            if info.open >= 0, regions.contains(where: { $0.file == caller.file && $0.open == info.open }) {
                fromHandler = true
                continue
            }
            let callers = index.callers(of: caller).filter { index.caller(of: $0) != caller }
            // Too deep to follow: rather silence than a false alarm. A library's public function is called by the
            // app built on it, whatever else in the sources calls it; the app's own delegate or `App` is part of no
            // library, and no other module calls its members.
            // A function nothing can run starts nothing (`Project.isUnreachable`).
            if callers.isEmpty, project.isUnreachable(caller) { continue }
            if callers.isEmpty || depth >= 8 || index.isSystemEntry(caller) { return .outside }
            if info.isPublic, !index.isAppType(info.typeName) { return .outside }
            for next in callers { work.append((next, depth + 1)) }
        }
        return fromHandler ? .handlerOnly : .nowhere
    }

    // MARK: duplicate-registration

    private func checkDuplicates(_ registrations: [Occurrence], into findings: inout [Finding]) {
        struct Site {
            var value: String
            var origin: CallID
            var location: SourceLocation
            var conditions: [UInt32]
        }
        let index = project.index
        var byValue: [String: [Site]] = [:]
        for occurrence in registrations {
            for identifier in occurrence.identifiers {
                guard case .known(let value) = identifier.value else { continue }
                let direct =
                    identifier.origin.index == occurrence.registration.call
                    && Int(identifier.origin.file) == occurrence.file
                byValue[value, default: []].append(
                    Site(
                        value: value, origin: identifier.origin, location: index.location(of: identifier.origin),
                        conditions: direct ? occurrence.registration.conditions : []))
            }
        }
        var reported: Set<SourceLocation> = []
        for value in byValue.keys.sorted() {
            var seen: [Site] = []
            for site in byValue[value]!.sorted(by: { $0.location < $1.location }) {
                defer { seen.append(site) }
                guard
                    let first = seen.first(where: {
                        $0.origin != site.origin && !Self.exclusive($0, site, conditions: \.conditions)
                    })
                else { continue }
                reported.insert(site.location)
                findings.append(
                    Finding(
                        rule: .duplicateRegistration, at: site.location,
                        message: "\"\(value)\" is registered again; it was first registered at "
                            + "\(ProjectIndex.short(first.location)). The system kills the app on the second "
                            + "registration."))
            }
        }
        for occurrence in registrations {
            let callID = CallID(file: Int32(occurrence.file), index: occurrence.registration.call)
            let location = index.location(of: callID)
            guard !reported.contains(location),
                let value = occurrence.identifiers.lazy.compactMap({ identifier -> String? in
                    guard identifier.origin == callID, case .known(let value) = identifier.value else { return nil }
                    return value
                }).first,
                let callers = callersRunningTwice(callID)
            else { continue }
            reported.insert(location)
            let function = index.callable(index.caller(of: callID)).signature
            findings.append(
                Finding(
                    rule: .duplicateRegistration, at: location,
                    message: "\"\(value)\" is registered by `\(function)`, which runs more than once in a process: "
                        + "it is called at \(ProjectIndex.short(index.location(of: callers.0))) and again at "
                        + "\(ProjectIndex.short(index.location(of: callers.1))). The system kills the app on the "
                        + "second registration."))
        }
    }

    /// For a registration in a function of its own (`setupTasks()`, no once-guard) that two different live functions
    /// call — an object's `init` and its `initialize()`, the launch and a later callback — two of those calls.
    private func callersRunningTwice(_ registration: CallID) -> (CallID, CallID)? {
        let index = project.index
        let function = index.caller(of: registration)
        guard index.callable(function).kind == .function, index.call(registration).deferredBy == nil,
            !registersOnce(registration)
        else { return nil }
        var byCaller: [CallableID: CallID] = [:]
        for call in index.callers(of: function) {
            let caller = index.caller(of: call)
            guard caller != function, index.call(call).deferredBy == nil, !project.isUnreachable(caller) else {
                continue
            }
            byCaller[caller] = byCaller[caller] ?? call
        }
        guard byCaller.count >= 2 else { return nil }
        let calls = byCaller.values.sorted { index.location(of: $0) < index.location(of: $1) }
        return (calls[0], calls[1])
    }

    /// Whether permitted identifier `value` is named in a source the audit does not parse (a React Native app's
    /// JavaScript that schedules it, an Objective-C file that registers it), by a literal part of it long enough
    /// not to be met by chance.
    private func namedElsewhere(_ value: String) -> Bool {
        let literal = PermittedIdentifiers.longestLiteral(of: value)
        return literal.count >= 8 && project.namedInOtherSources(literal)
    }

    /// Whether the sources hand identifier `value` to code they do not hold, which may register it: a literal of it
    /// assigned to a member of a type the sources do not declare (a plugin's
    /// `BackgroundServicePlugin.taskIdentifier = "…"`), or given as the first argument of such a type's method named
    /// for registering (Flutter's workmanager: `WorkmanagerPlugin.registerPeriodicTask(withIdentifier: "…")`).
    private func handedToOutsideCode(_ value: String) -> Bool {
        let needle = Array(value.utf8)
        for fileIndex in 0..<project.fileCount
        where project.sources[fileIndex].firstRange(of: needle) != nil {
            let file = project.file(fileIndex)
            for token in 0..<file.count where file.stringValue(token) == value {
                if registersOutside(argument: token, in: file) { return true }
                guard file.isPunct(token - 1, ASCII.equals) else { continue }
                // `Type.member = "…"` (also `Module.Type.member`): the type is the name before the last dot.
                var cursor = token - 2
                guard file.isIdentifier(cursor), file.isPunct(cursor - 1, ASCII.dot), file.isIdentifier(cursor - 2)
                else { continue }
                cursor -= 2
                let type = file.text(cursor)
                if type.first?.isUppercase == true, !project.index.declares(type: type) { return true }
            }
        }
        return false
    }

    /// Whether the literal at `token` is the first argument of a method named for registering (`register…`) of a type
    /// the sources do not declare: `Plugin.registerTask("…")`, `Plugin.registerTask(withIdentifier: "…")`.
    private func registersOutside(argument token: Int, in file: SourceFile) -> Bool {
        let open =
            file.isPunct(token - 1, ASCII.openParen)
            ? token - 1
            : file.isPunct(token - 1, ASCII.colon) && file.isIdentifier(token - 2)
                && file.isPunct(token - 3, ASCII.openParen) ? token - 3 : -1
        guard open > 2, file.isIdentifier(open - 1), file.text(open - 1).hasPrefix("register"),
            file.isPunct(open - 2, ASCII.dot), file.isIdentifier(open - 3), !file.isPunct(open - 4, ASCII.dot)
        else { return false }
        let type = file.text(open - 3)
        return type.first?.isUppercase == true && !project.index.declares(type: type)
    }

    /// An identifier the sources hand to a plugin they do not hold, which registers a launch handler for it: a literal
    /// given as the first argument of a method of the plugin's type named for registering a task
    /// (`WorkmanagerPlugin.registerPeriodicTask(withIdentifier: "…")`), which leaves the submits to the plugin's
    /// users, or assigned to its member named for the identifier (`SwiftFlutterBackgroundServicePlugin.taskIdentifier =
    /// "…"`), whose plugin registers and submits the task itself.
    private struct OutsideRegistration {
        var value: String
        var plugin: String
        var location: SourceLocation
        /// The plugin submits the task too; the register call's form waits for code that submits it.
        var submitsItself: Bool
    }

    /// The identifiers live code hands to plugins that register them (`OutsideRegistration`).
    private func outsideRegistrations() -> [OutsideRegistration] {
        var found: [OutsideRegistration] = []
        for fileIndex in 0..<project.fileCount {
            let summary = project.summary(fileIndex)
            // The register calls, from the index alone: a file is tokenized only for an assignment its text shows.
            for (callIndex, call) in summary.calls.enumerated() {
                guard call.name.hasPrefix("register"), call.name.contains("Task"),
                    case .type(let plugin) = call.receiver,
                    plugin != "BGTaskScheduler", plugin.first?.isUppercase == true,
                    case .string(let value)? = call.arguments.first, !value.isEmpty,
                    !project.index.declares(type: plugin), isLive(caller: call.caller, file: fileIndex)
                else { continue }
                found.append(
                    OutsideRegistration(
                        value: value, plugin: plugin,
                        location: project.index.location(of: CallID(file: Int32(fileIndex), index: Int32(callIndex))),
                        submitsItself: false))
            }
            guard Self.assignsIdentifierToMember(project.sources[fileIndex]) else { continue }
            let file = project.file(fileIndex)
            for token in 1..<max(file.count, 1)
            where file.isPunct(token - 1, ASCII.equals) && file.isIdentifier(token - 2)
                && file.text(token - 2).lowercased().contains("identifier") && file.isPunct(token - 3, ASCII.dot)
                && file.isIdentifier(token - 4) && !file.isPunct(token - 5, ASCII.dot)
            {
                let plugin = file.text(token - 4)
                guard let value = file.stringValue(token), !value.isEmpty, !value.contains("\\("), plugin != "Self",
                    plugin.first?.isUppercase == true, !project.index.declares(type: plugin)
                else { continue }
                let scope = file.callable(containing: token) ?? 0
                guard let callable = summary.callables.firstIndex(where: { Int($0.scope) == scope }),
                    isLive(caller: Int32(callable), file: fileIndex)
                else { continue }
                found.append(
                    OutsideRegistration(
                        value: value, plugin: plugin, location: file.location(token), submitsItself: true))
            }
        }
        return found
    }

    private func isLive(caller: Int32, file: Int) -> Bool {
        !project.isUnreachable(CallableID(file: Int32(file), index: caller))
    }

    /// Whether `source` may assign a literal to a type's member named for an identifier: `.…dentifier = "` (or
    /// without spaces) after a dot, read from the bytes without tokenizing.
    private static func assignsIdentifierToMember(_ source: [UInt8]) -> Bool {
        let word = Array("dentifier".utf8)
        return source.withUnsafeBufferPointer { bytes in
            var index = 1
            while index + word.count < bytes.count {
                defer { index += 1 }
                guard bytes[index] == word[0], bytes[index - 1] | 0x20 == UInt8(ascii: "i") else { continue }
                var length = 1
                while length < word.count, bytes[index + length] == word[length] { length += 1 }
                guard length == word.count else { continue }
                // `= "` after the name, with or without a space before and after `=`.
                var cursor = index + length
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                guard cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { continue }
                cursor += 1
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { continue }
                // The member's name back to the dot before it.
                var start = index - 1
                while start > 0, Tokenizer.isIdentifierBody(bytes[start - 1]) { start -= 1 }
                if start > 0, bytes[start - 1] == UInt8(ascii: ".") { return true }
            }
            return false
        }
    }

    /// Reports an identifier handed to a plugin's register method that no code submits: not the app's Swift, and no
    /// source the audit does not parse (the Dart or JavaScript that would schedule it) names it.
    private func reportOutsideUnsubmitted(
        _ outside: [OutsideRegistration], submitted: [ResolvedIdentifier], into findings: inout [Finding]
    ) {
        var named: Set<String> = []
        for identifier in submitted {
            guard case .known(let value) = identifier.value else { return }
            named.insert(value)
        }
        var reported: Set<String> = []
        for registration in outside
        where !registration.submitsItself && !named.contains(registration.value)
            // Too short a name may be met by chance in the other sources, and then cannot be looked up there.
            && registration.value.count >= 8 && reported.insert(registration.value).inserted
            && !namedElsewhere(registration.value)
        {
            findings.append(
                Finding(
                    rule: .registeredNeverSubmitted, at: registration.location,
                    message:
                        "\"\(registration.value)\" is handed to `\(registration.plugin)`, which registers a launch "
                        + "handler for it, but no code submits or schedules a task with this identifier, so it never runs."
                ))
        }
    }

    /// Two registrations in different branches of the same `#if` never both compile.
    private static func exclusive<Value>(_ lhs: Value, _ rhs: Value, conditions: KeyPath<Value, [UInt32]>) -> Bool {
        for left in lhs[keyPath: conditions] {
            for right in rhs[keyPath: conditions] where left >> 16 == right >> 16 && left != right { return true }
        }
        return false
    }

    // MARK: identifier-not-permitted / permitted-never-registered

    /// `live`: the registrations code can run; a dead one's identifier, whatever it is, leaves every permitted one
    /// unregistered.
    private func checkPermitted(
        _ live: [Occurrence], outside: [OutsideRegistration], into findings: inout [Finding]
    ) {
        // An app extension's plist (a widget's) does not list the app's background tasks, nor does a framework's (a
        // vendored XCFramework's, an SDK's own): with only those in the tree, the app's own Info.plist is not there to
        // judge against.
        // Nor is a plist no target of its project builds with.
        let lists = project.propertyLists.filter {
            !$0.isNamedByNoTarget && (!($0.isExtension || $0.isLibraryBundle) || $0.declaresKey)
        }
        guard !lists.isEmpty else { return }
        let declaring = lists.filter(\.declaresKey)
        // The app's own Info.plist, which its Xcode project names, is not in the tree: with no other list holding the
        // key, what the app permits cannot be read.
        if declaring.isEmpty, project.lacksAppInfoPlist { return }
        // No property list holds the key, and a manifest writes it into the Info.plist a build tool generates (Tuist's
        // Swift, XcodeGen's YAML, an Expo config plugin's script): the permitted list is made at build time, out of
        // the tree's sight.
        if declaring.isEmpty,
            project.index.files.contains(where: \.generatesPermittedIdentifiers)
                || project.namedInManifests("BGTaskSchedulerPermittedIdentifiers")
                || project.namedInOtherSources("BGTaskSchedulerPermittedIdentifiers")
        {
            return
        }
        let patterns = declaring.flatMap(\.entries).map(\.value)
        var reported: Set<ResolvedIdentifier> = []
        var registered: [String] = []
        // Identifiers built at run time, as patterns of their literal parts (`*.refresh`); `nil` for one that could
        // be anything.
        var built: [String?] = []
        for occurrence in live {
            for identifier in occurrence.identifiers {
                guard case .known(let value) = identifier.value else {
                    if case .unknown(let text) = identifier.value {
                        let pattern = PermittedIdentifiers.pattern(of: text)
                        built.append(pattern)
                        // Built at run time, yet no entry fits its literal parts (`"\(bundle).chaff"` beside only
                        // `$(PRODUCT_BUNDLE_IDENTIFIER).refresh`): whatever it equals, it is not permitted.
                        if let pattern, !declaring.isEmpty, !patterns.contains(where: { $0.mayFit(pattern) }),
                            reported.insert(identifier).inserted
                        {
                            let message =
                                "`\(text)` is registered, but no entry of BGTaskSchedulerPermittedIdentifiers in "
                                + declaring.map(\.path).joined(separator: ", ")
                                + " fits it (\"\(pattern)\", * standing for what is built at run time)."
                            findings.append(
                                Finding(
                                    rule: .identifierNotPermitted, at: project.index.location(of: identifier.origin),
                                    message: message))
                        }
                    }
                    continue
                }
                registered.append(value)
                guard !patterns.contains(where: { PermittedIdentifiers.matches(value, pattern: $0) }),
                    reported.insert(identifier).inserted
                else { continue }
                let message =
                    declaring.isEmpty
                    ? "\"\(value)\" is registered, but no Info.plist in the tree has BGTaskSchedulerPermittedIdentifiers."
                    : "\"\(value)\" is registered, but BGTaskSchedulerPermittedIdentifiers in "
                        + declaring.map(\.path).joined(separator: ", ") + " does not list it."
                findings.append(
                    Finding(
                        rule: .identifierNotPermitted, at: project.index.location(of: identifier.origin),
                        message: message))
            }
        }
        // Registered by a plugin the sources hand it to: the plugin's registration is refused as the app's would be.
        var handedOn: Set<String> = []
        for registration in outside where handedOn.insert(registration.value).inserted {
            registered.append(registration.value)
            guard !patterns.contains(where: { PermittedIdentifiers.matches(registration.value, pattern: $0) }) else {
                continue
            }
            let list =
                declaring.isEmpty
                ? "no Info.plist in the tree has BGTaskSchedulerPermittedIdentifiers"
                : "BGTaskSchedulerPermittedIdentifiers in " + declaring.map(\.path).joined(separator: ", ")
                    + " does not list it"
            findings.append(
                Finding(
                    rule: .identifierNotPermitted, at: registration.location,
                    message:
                        "\"\(registration.value)\" is handed to `\(registration.plugin)`, which registers a launch "
                        + "handler for it, but \(list)."))
        }
        // An identifier registered from a value the sources cannot tell could be any permitted one; one built from
        // an interpolated literal, any whose literal ends fit it (`"\(bundle).refresh"` may be
        // `$(PRODUCT_BUNDLE_IDENTIFIER).refresh`, never `$(PRODUCT_BUNDLE_IDENTIFIER).sync`).
        guard !built.contains(nil) else { return }
        for list in declaring {
            for entry in list.entries where !entry.value.contains("*") {
                guard !registered.contains(where: { PermittedIdentifiers.matches($0, pattern: entry.value) }),
                    !built.contains(where: { PermittedIdentifiers.mayOverlap($0!, entry.value) }),
                    !namedElsewhere(entry.value), !handedToOutsideCode(entry.value)
                else {
                    continue
                }
                findings.append(
                    Finding(
                        rule: .permittedNeverRegistered, file: list.path, line: entry.line, column: 1,
                        message: "\"\(entry.value)\" is permitted in BGTaskSchedulerPermittedIdentifiers, but no "
                            + "code registers a launch handler for it."))
            }
        }
    }
}

extension String {
    /// Whether this permitted entry may be the identifier built at run time whose literal parts `pattern` gives.
    fileprivate func mayFit(_ pattern: String) -> Bool { PermittedIdentifiers.mayOverlap(pattern, self) }
}
