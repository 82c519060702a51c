// One file for one type: the collector is one walk over a file's scopes and one over its tokens, whose steps share
// the summary being built as private state; its parts are marked (scopes, tokens, flags and singletons).

/// Reads one `SourceFile` into its `FileSummary` in one walk over the scopes and one over the tokens.
struct FactCollector {
    private let file: SourceFile
    private var summary: FileSummary
    /// For each scope, the local callable its code belongs to.
    private var owner: [Int32]
    /// For each scope, the closure that runs later which it sits in, named for a message.
    private var deferral: [String?]
    /// For each type scope, its index in `summary.types`.
    private var typeOfScope: [Int32]
    /// The name of each type declaration's or extension's scope (`WordTable.hash` of it), by scope; `nil` for others.
    private var typeNameOfScope: [UInt64?]
    /// The name tokens of type declarations and extensions, with the name's hash.
    private var typeHeaders: [Int: UInt64] = [:]
    /// The names (hashed) already in `summary.namesOutsideOwnType`.
    private var namedOutside: Set<UInt64> = []
    /// For each scope, whether it sits in a closure run on every change of app state (a `NotificationCenter`
    /// observer of `willResignActive`, `didEnterBackground` …).
    private var onStateChange: [Bool]
    /// The file names `BGTaskScheduler` or makes a refresh or processing request.
    private let mentionsScheduler: Bool

    static func collect(_ file: SourceFile) -> FileSummary {
        var collector = FactCollector(file: file)
        collector.collectScopes()
        collector.collectTokens()
        collector.summary.unbuiltLines = file.unbuiltLines()
        return collector.summary
    }

    private init(file: SourceFile) {
        self.file = file
        summary = FileSummary(path: file.path)
        owner = Array(repeating: 0, count: file.scopes.count)
        deferral = Array(repeating: nil, count: file.scopes.count)
        typeOfScope = Array(repeating: -1, count: file.scopes.count)
        typeNameOfScope = file.scopes.map { scope in
            guard scope.kind == .type, scope.name >= 0 else { return nil }
            let token = file.tokens[Int(scope.name)]
            return file.bytes.withUnsafeBufferPointer { WordTable.hash($0, Int(token.start), Int(token.end)) }
        }
        for (scope, name) in zip(file.scopes, typeNameOfScope) where name != nil { typeHeaders[Int(scope.name)] = name }
        onStateChange = Array(repeating: false, count: file.scopes.count)
        // A file that names the scheduler or makes a request: there `x.submit(request)` submits one, also through
        // the app's own protocol the scheduler conforms to (`scheduler.submit(BGAppRefreshTaskRequest(…))`).
        // One pass for both. A manifest writing the permitted identifiers or the background modes:
        // `"BGTaskSchedulerPermittedIdentifiers": …`, `"UIBackgroundModes": …`.
        var mentions = false
        for index in file.tokens.indices {
            if file.tokens[index].kind == .string {
                if file.isPunct(index + 1, ASCII.colon) {
                    switch file.stringValue(index) {
                    case "BGTaskSchedulerPermittedIdentifiers": summary.generatesPermittedIdentifiers = true
                    case "UIBackgroundModes": summary.generatesBackgroundModes = true
                    default: break
                    }
                }
            } else if !mentions {
                mentions =
                    file.is(index, "BGTaskScheduler") || file.is(index, "BGAppRefreshTaskRequest")
                    || file.is(index, "BGProcessingTaskRequest") || file.is(index, "BGContinuedProcessingTaskRequest")
            }
        }
        mentionsScheduler = mentions
    }

    // MARK: Scopes: types and callables

    private mutating func collectScopes() {
        summary.callables.append(CallableInfo(kind: .topLevel, name: "top-level code", scope: 0, line: 1))
        for index in 1..<file.scopes.count {
            let scope = file.scopes[index]
            let parent = Int(scope.parent)
            switch scope.kind {
            case .type:
                let info = typeInfo(scope)
                typeOfScope[index] = Int32(summary.types.count)
                summary.types.append(info)
                owner[index] = Int32(summary.callables.count)
                summary.callables.append(
                    CallableInfo(
                        kind: .storedValues, name: "stored properties of \(info.name)", typeName: info.name,
                        scope: Int32(index), line: Int32(file.line(Int(scope.open)))))
            case .function, .property:
                owner[index] = Int32(summary.callables.count)
                var info = callableInfo(scope, index: index)
                if scope.close > scope.open { info.closeLine = Int32(file.line(Int(scope.close))) }
                if PushCallback(info) != nil { summary.needsDetailedPass = true }
                if info.signature == "application(_:handleEventsForBackgroundURLSession:completionHandler:)"
                    || (info.isAsync && info.signature == "application(_:handleEventsForBackgroundURLSession:)")
                {
                    summary.backgroundEventHandlers.append(owner[index])
                }
                summary.callables.append(info)
            default:
                owner[index] = owner[parent]
                if scope.kind == .closure, let described = deferringCall(scope) {
                    deferral[index] = described
                } else {
                    deferral[index] = deferral[parent]
                }
                onStateChange[index] = onStateChange[parent] || scope.kind == .closure && observesStateChange(scope)
            }
        }
    }

    private func typeInfo(_ scope: Scope) -> TypeInfo {
        var index = Int(scope.name)
        // `extension Outer.Inner` names the last component.
        while file.isPunct(index + 1, ASCII.dot), file.isIdentifier(index + 2) { index += 2 }
        let name = file.isIdentifier(index) ? file.text(index) : ""
        var inherits: [String] = []
        var cursor = index + 1
        let open = Int(scope.open)
        if file.isPunct(cursor, ASCII.less) {
            var depth = 0
            while cursor < open {
                if file.isPunct(cursor, ASCII.less) { depth += 1 }
                if file.isPunct(cursor, ASCII.greater) {
                    depth -= 1
                    if depth == 0 { break }
                }
                cursor += 1
            }
            cursor += 1
        }
        if file.isPunct(cursor, ASCII.colon) {
            cursor += 1
            var last: String?
            while cursor < open, file.word(cursor) != .where {
                if file.isIdentifier(cursor) {
                    last = file.text(cursor)
                } else if file.isPunct(cursor, ASCII.comma) || file.isPunct(cursor, ASCII.ampersand) {
                    if let name = last { inherits.append(name) }
                    last = nil
                }
                cursor += 1
            }
            if let name = last { inherits.append(name) }
        }
        var exposed = false
        var entry = false
        var modifier = Int(scope.head) - 1
        while modifier >= 0, Int(scope.head) - modifier <= 6,
            file.isIdentifier(modifier) || file.isPunct(modifier, ASCII.at), !Self.endsDeclaration(modifier, in: file)
        {
            if file.is(modifier, "objc") || file.is(modifier, "objcMembers") { exposed = true }
            if file.isPunct(modifier - 1, ASCII.at), Self.entryAttributes.contains(file.text(modifier)) { entry = true }
            modifier -= 1
        }
        return TypeInfo(
            name: name, inherits: inherits, isExtension: file.word(Int(scope.head)) == .extension,
            isTopLevel: scope.parent == 0, exposesMembers: exposed, isEntry: entry)
    }

    /// The attributes that make a type the program's entry.
    private static let entryAttributes: Set<String> = ["main", "UIApplicationMain", "NSApplicationMain"]
    /// Words written before a parameter's type that are not its name (`any Runnable`, `inout Token`).
    private static let typeModifiers: Set<String> = ["any", "some", "inout", "borrowing", "consuming", "sending"]

    private func callableInfo(_ scope: Scope, index: Int) -> CallableInfo {
        let head = Int(scope.head)
        let typeName = file.enclosingType(ofScope: index).flatMap { typeOfScope[$0] >= 0 ? $0 : nil }.map {
            summary.types[Int(typeOfScope[$0])].name
        }
        let line = Int32(file.line(head))
        if scope.kind == .property {
            return CallableInfo(
                kind: .property, name: file.text(Int(scope.name)), typeName: typeName,
                scope: Int32(index), open: scope.open, line: line)
        }
        let word = file.word(head)
        let name = word == .func ? file.text(head + 1) : file.text(head)
        var info = CallableInfo(
            kind: word == .`init` ? .initializer : .function, name: name, typeName: typeName,
            scope: Int32(index), open: scope.open, line: line)
        var cursor = head + 1
        let open = Int(scope.open)
        while cursor < open, !file.isPunct(cursor, ASCII.openParen) { cursor += 1 }
        guard cursor < open else { return info }
        let close = Int(file.matching[cursor])
        guard close > cursor else { return info }
        var start = cursor + 1
        while start < close {
            var end = start
            while end < close, !file.isPunct(end, ASCII.comma) {
                if file.matching[end] > end { end = Int(file.matching[end]) }
                end += 1
            }
            if file.isIdentifier(start) {
                let external = file.text(start)
                let internalName =
                    file.isIdentifier(start + 1) && file.isPunct(start + 2, ASCII.colon)
                    ? file.text(start + 1) : external
                if info.labels.isEmpty, let colon = (start..<end).first(where: { file.isPunct($0, ASCII.colon) }) {
                    // `_ manager: CLLocationManager`, `_ session: Foundation.URLSession`, `task: any Runnable`: the
                    // type's last name.
                    var type = colon + 1
                    while type + 1 < end, file.isIdentifier(type + 1), Self.typeModifiers.contains(file.text(type)) {
                        type += 1
                    }
                    while type + 2 < end, file.isPunct(type + 1, ASCII.dot), file.isIdentifier(type + 2) { type += 2 }
                    if type < end, file.isIdentifier(type) { info.firstParameterType = file.text(type) }
                }
                info.labels.append(external)
                info.parameters.append(internalName)
                var defaulted = false
                info.takesClosure.append(
                    (start..<end).contains { file.isPunct($0, ASCII.minus) && file.isPunct($0 + 1, ASCII.greater) })
                var token = start
                while token < end {
                    if file.matching[token] > token {
                        token = Int(file.matching[token]) + 1
                        continue
                    }
                    // A default value, or a variadic parameter (`_ items: Any...`): a call may leave either out.
                    if file.isPunct(token, ASCII.equals)
                        || (file.isPunct(token, ASCII.dot) && file.isPunct(token + 1, ASCII.dot)
                            && file.isPunct(token + 2, ASCII.dot))
                    {
                        defaulted = true
                        break
                    }
                    token += 1
                }
                info.defaulted.append(defaulted)
            }
            start = end + 1
        }
        for token in (close + 1)..<open where file.word(token) == .async {
            info.isAsync = true
            break
        }
        // `-> Bool` after the parameters (`-> Void` and `-> ()` return nothing).
        if let arrow = ((close + 1)..<open).first(where: {
            file.isPunct($0, ASCII.minus) && file.isPunct($0 + 1, ASCII.greater)
        }) {
            info.returnsValue =
                !file.is(arrow + 2, "Void")
                && !(file.isPunct(arrow + 2, ASCII.openParen) && file.isPunct(arrow + 3, ASCII.closeParen))
        }
        // `public func`, `@objc open func`: the modifiers and attributes just before `func`.
        var modifier = head - 1
        // Not the end of the declaration before (`private var phase`, then `init() {`).
        while modifier >= 0, head - modifier <= 6, file.isIdentifier(modifier) || file.isPunct(modifier, ASCII.at),
            !Self.endsDeclaration(modifier, in: file)
        {
            if file.is(modifier, "public") || file.is(modifier, "open") { info.isPublic = true }
            if file.is(modifier, "private") || file.is(modifier, "fileprivate") { info.isPrivate = true }
            if Self.exposingModifiers.contains(file.text(modifier)) { info.isExposed = true }
            if file.word(modifier) == .static || file.word(modifier) == .class { info.isStatic = true }
            modifier -= 1
        }
        // An attribute with arguments (`@objc(refresh:)`, `@available(…)`) just before: taken as one that exposes it.
        // Not any `)` (the previous line's `static let shared = Manager()`).
        if modifier >= 0, head - modifier <= 6, file.isPunct(modifier, ASCII.closeParen),
            case let open = Int(file.matching[modifier]), open >= 2, open < modifier, file.isIdentifier(open - 1),
            file.isPunct(open - 2, ASCII.at)
        {
            info.isExposed = true
        }
        // A member of a `public extension` is public unless it says otherwise.
        if !info.isPublic, !info.isPrivate, !(modifier + 1..<head).contains(where: { file.is($0, "internal") }),
            let type = file.enclosingType(ofScope: index), Int(scope.parent) == type,
            file.word(Int(file.scopes[type].head)) == .extension,
            Self.isPublicDeclaration(head: Int(file.scopes[type].head), in: file)
        {
            info.isPublic = true
        }
        return info
    }

    /// Whether the identifier at `token` is a declaration's keyword or the name one declares (`var` or `phase` in
    /// `private var phase`): the end of the declaration before, where no modifier of the next one can be. `class`
    /// is a modifier too (`class func`).
    private static func endsDeclaration(_ token: Int, in file: SourceFile) -> Bool {
        let keywords: Set<Word> = [.var, .let, .func, .case, .typealias, .import, .struct, .enum, .protocol]
        return keywords.contains(file.word(token))
            || token > 0 && (keywords.contains(file.word(token - 1)) || file.word(token - 1) == .class)
    }

    /// Whether the declaration whose keyword is at `head` is marked `public` or `open`.
    private static func isPublicDeclaration(head: Int, in file: SourceFile) -> Bool {
        var modifier = head - 1
        // Not the end of the declaration before (`private var phase`, then `init() {`).
        while modifier >= 0, head - modifier <= 6, file.isIdentifier(modifier) || file.isPunct(modifier, ASCII.at),
            !Self.endsDeclaration(modifier, in: file)
        {
            if file.is(modifier, "public") || file.is(modifier, "open") { return true }
            modifier -= 1
        }
        return false
    }

    /// Modifiers and attributes by which code outside the Swift sources may call a function the sources never call:
    /// the Objective-C runtime (`@objc`, `@IBAction`, `dynamic`), a superclass it overrides.
    static let exposingModifiers: Set<String> = [
        "objc", "objcMembers", "IBAction", "IBSegueAction", "NSManaged", "dynamic", "override", "_cdecl",
        "_dynamicReplacement",
    ]

    /// Names of functions whose closure argument runs after the call returns, so that code in it runs after
    /// whatever the enclosing function was doing (for a registration: after launch). A Flutter method channel's
    /// handler (`setMethodCallHandler`) and an Expo module's functions and creation hook (`Function`,
    /// `AsyncFunction`, `OnCreate`) run when Dart or JavaScript calls, after launch.
    private static let deferringMembers: Set<String> = [
        "async", "asyncAfter", "task", "onAppear", "onChange", "onReceive", "onTapGesture", "onOpenURL",
        "refreshable", "sink", "onSubmit", "onDisappear", "onContinueUserActivity", "addOperation", "perform",
        "notify", "detached", "scheduledTimer", "addObserver", "setMethodCallHandler",
    ]
    private static let deferringTypes: Set<String> = [
        "Task", "Button", "Timer", "Function", "AsyncFunction", "OnCreate",
    ]

    private func deferringCall(_ scope: Scope) -> String? {
        let callee = Int(scope.name)
        guard file.isIdentifier(callee) else { return nil }
        let name = file.text(callee)
        let isMember = file.isPunct(callee - 1, ASCII.dot)
        guard (isMember && Self.deferringMembers.contains(name)) || Self.deferringTypes.contains(name) else {
            return nil
        }
        // UIKit posts `didFinishLaunchingNotification` while it finishes launching: its observer runs during launch.
        if observesLaunch(scope) { return nil }
        return "`\(chainText(endingAt: callee))`"
    }

    /// A closure passed to an observer of the app's state: `addObserver(forName: UIApplication.willResignActive…)`,
    /// `.onReceive(NotificationCenter.default.publisher(for: …))`, or a `sink` on such a publisher.
    private func observesStateChange(_ scope: Scope) -> Bool {
        let callee = Int(scope.name)
        guard file.isIdentifier(callee) else { return false }
        if file.is(callee, "addObserver") || file.is(callee, "onReceive") {
            guard file.isPunct(callee + 1, ASCII.openParen) else { return false }
            return namesStateChange(from: callee + 2, to: Int(file.matching[callee + 1]))
        }
        if file.is(callee, "sink") {
            var start = callee
            while start > 0, callee - start < 40, !file.startsStatement(start) { start -= 1 }
            return namesStateChange(from: start, to: callee)
        }
        return false
    }

    /// A closure observing `UIApplication.didFinishLaunchingNotification` (`addObserver(forName:…)`, or a `sink` on
    /// its publisher).
    private func observesLaunch(_ scope: Scope) -> Bool {
        let callee = Int(scope.name)
        var start = callee + 1
        var end = callee + 1
        if file.is(callee, "addObserver"), file.isPunct(callee + 1, ASCII.openParen) {
            end = Int(file.matching[callee + 1])
        } else if file.is(callee, "sink") {
            start = callee
            while start > 0, callee - start < 40, !file.startsStatement(start) { start -= 1 }
            end = callee
        }
        guard start < end else { return false }
        return (start..<end).contains {
            file.isIdentifier($0) && file.text($0).lowercased().contains("didfinishlaunching")
        }
    }

    /// Whether tokens `start..<end` name a notification posted on every change of app state.
    private func namesStateChange(from start: Int, to end: Int) -> Bool {
        names(Self.stateChanges, from: start, to: end)
    }

    /// Whether an identifier in tokens `start..<end` contains one of `parts`.
    private func names(_ parts: [String], from start: Int, to end: Int) -> Bool {
        guard start < end else { return false }
        for index in start..<end where file.isIdentifier(index) {
            let name = file.text(index)
            if parts.contains(where: { name.contains($0) }) { return true }
        }
        return false
    }

    private static let stateChanges = ["EnterBackground", "EnterForeground", "ResignActive", "BecomeActive"]

    /// `#selector(willResignActive)`, `#selector(self.appDidEnterBackground(_:))`: the method's name.
    private func selectorMethod(_ argument: Argument) -> String? {
        guard file.isPunct(argument.start, ASCII.hash), file.is(argument.start + 1, "selector"),
            file.isPunct(argument.start + 2, ASCII.openParen)
        else { return nil }
        for index in (argument.start + 3)..<argument.end where file.isIdentifier(index) {
            if file.isPunct(index + 1, ASCII.openParen) || file.isPunct(index + 1, ASCII.closeParen) {
                return file.text(index)
            }
        }
        return nil
    }

    /// `DispatchQueue.main.async`, `.onAppear`, `Task.detached`: the dotted name a reader knows the call by.
    private func chainText(endingAt index: Int) -> String {
        var parts = [file.text(index)]
        var cursor = index
        while file.isPunct(cursor - 1, ASCII.dot) {
            if file.isIdentifier(cursor - 2), file.word(cursor - 2) != .`self` {
                parts.append(file.text(cursor - 2))
                cursor -= 2
            } else {
                parts.append("")
                break
            }
        }
        return parts.reversed().joined(separator: ".")
    }

    // MARK: Tokens: calls, constants and background facts

    private mutating func collectTokens() {
        var conditions: [UInt32] = []
        var nextGroup: UInt32 = 0
        var index = 0
        let count = file.count
        while index < count {
            let token = file.tokens[index]
            switch token.kind {
            case .directive:
                switch token.word {
                case .if:
                    conditions.append(nextGroup << 16)
                    nextGroup += 1
                case .else:
                    if !conditions.isEmpty { conditions[conditions.count - 1] += 1 }
                default:
                    if !conditions.isEmpty { conditions.removeLast() }
                }
            case .identifier:
                switch token.word {
                case .let, .var:
                    collectConstant(at: index)
                    collectStoredValue(at: index)
                    collectPropertyType(at: index)
                    noteLocal(at: index + 1)
                case .case:
                    collectEnumCases(at: index)
                case .for:
                    notePatternLocals(after: index)
                case .in:
                    noteClosureParameters(before: index)
                default:
                    if token.word == .none, isCapital(file.bytes[Int(token.start)]) { noteTypeName(at: index) }
                    collectCall(at: index, conditions: conditions)
                    collectSessionValue(at: index)
                    collectAssignment(at: index)
                }
            case .string, .interpolatedString:
                noteTypeNames(inStringAt: index)
            default:
                break
            }
            index += 1
        }
    }

    // MARK: Type names

    private func isCapital(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    private func isSmall(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }

    /// `WordTable.hash` of the bytes `start..<end`: a name is compared by it while the file is read, so that no
    /// `String` is made for a name already seen.
    private func hash(_ start: Int, _ end: Int) -> UInt64 {
        file.bytes.withUnsafeBufferPointer { WordTable.hash($0, start, end) }
    }

    /// Notes the capitalised identifier at `index` when it is not written in a declaration or extension of a type of
    /// that name (its own name there, `Self`-like uses in its body, `static let shared = Manager()`).
    private mutating func noteTypeName(at index: Int) {
        let token = file.tokens[index]
        let name = hash(Int(token.start), Int(token.end))
        guard !namedOutside.contains(name), !isOwnType(name, at: index) else { return }
        namedOutside.insert(name)
        summary.namesOutsideOwnType.insert(file.text(index))
    }

    /// Notes each capitalised word of the string literal at `index` (`NSClassFromString("Manager")`, a log line) that is
    /// not inside a declaration of a type of that name.
    private mutating func noteTypeNames(inStringAt index: Int) {
        let token = file.tokens[index]
        var at = Int(token.start)
        let end = Int(token.end)
        while at < end {
            guard Tokenizer.isIdentifierHead(file.bytes[at]),
                at == Int(token.start) || !Tokenizer.isIdentifierBody(file.bytes[at - 1])
            else {
                at += 1
                continue
            }
            let start = at
            while at < end, Tokenizer.isIdentifierBody(file.bytes[at]) { at += 1 }
            guard isCapital(file.bytes[start]) else { continue }
            let word = hash(start, at)
            if !namedOutside.contains(word), !isOwnType(word, at: index) {
                namedOutside.insert(word)
                summary.namesOutsideOwnType.insert(String(decoding: file.bytes[start..<at], as: UTF8.self))
            }
        }
    }

    /// Whether token `index` is the name of a type declaration or extension named `name`, or lies inside one.
    private func isOwnType(_ name: UInt64, at index: Int) -> Bool {
        if typeHeaders[index] == name { return true }
        var scope = Int(file.scopeOf[index])
        while scope > 0 {
            if typeNameOfScope[scope] == name { return true }
            scope = Int(file.scopes[scope].parent)
        }
        return false
    }

    private mutating func collectCall(at index: Int, conditions: [UInt32]) {
        let token = file.tokens[index]
        if token.word.isReserved { return }
        if token.word == .`init`, !file.isPunct(index - 1, ASCII.dot) { return }
        if token.word == .`self` || token.word == .selfType || token.word == .super { return }
        let previousWord = file.word(index - 1)
        if previousWord == .func || previousWord == .case { return }
        // `super.viewDidLoad()` runs the framework's or a superclass's code, never the override it is written in.
        if file.isPunct(index - 1, ASCII.dot), file.word(index - 2) == .super { return }
        var arguments: [Argument] = []
        var trailingClosure = false
        if file.isPunct(index + 1, ASCII.openParen), file.line(index + 1) == Int(token.line) {
            arguments = file.arguments(ofCallAt: index + 1)
            let close = Int(file.matching[index + 1])
            trailingClosure = close > 0 && opensClosure(of: index, at: close + 1)
        } else if opensClosure(of: index, at: index + 1) {
            trailingClosure = true
        } else {
            collectStaticAccess(at: index)
            return
        }
        // `URLSession.init(configuration:)` is `URLSession(configuration:)`: an explicit `init` names its type.
        let namesType =
            file.word(index) == .`init` && file.isPunct(index - 1, ASCII.dot) && file.isIdentifier(index - 2)
            && file.text(index - 2).first?.isUppercase == true && file.word(index - 2) != .selfType
        let name = namesType ? file.text(index - 2) : file.text(index)
        let scope = Int(file.scopeOf[index])
        let callIndex = Int32(summary.calls.count)
        let values = arguments.map(value(of:))
        summary.calls.append(
            CallInfo(
                name: name, receiver: receiver(ofCallAt: index),
                labels: arguments.map { $0.label >= 0 ? file.text($0.label) : "_" },
                arguments: values, hasTrailingClosure: trailingClosure, caller: owner[scope],
                deferredBy: deferral[scope],
                onStateChange: onStateChange[scope], inExpirationHandler: isInsideExpirationHandler(index),
                receiverProperty: receiverProperty(ofCallAt: index),
                token: Int32(index), line: Int32(token.line), column: Int32(file.column(index))))
        noteBackgroundFacts(
            name: name, at: index, call: callIndex, arguments: arguments, values: values,
            trailingClosure: trailingClosure, conditions: conditions)
    }

    /// A type's static member read (`Manager.shared`, not a call): the first read runs the type's static stored
    /// values (`static let shared = Manager()`, and the initialiser it calls), so it is kept, with where it is read,
    /// for the launch context of what those values run.
    private mutating func collectStaticAccess(at index: Int) {
        guard file.isPunct(index + 1, ASCII.dot), file.isIdentifier(index), file.word(index) == .none,
            isCapital(file.bytes[Int(file.tokens[index].start)]), !file.isPunct(index - 1, ASCII.dot),
            file.isIdentifier(index + 2), file.word(index + 2) == .none,
            isSmall(file.bytes[Int(file.tokens[index + 2].start)]), !file.isPunct(index + 3, ASCII.openParen)
        else { return }
        let scope = Int(file.scopeOf[index])
        summary.staticReads.append(
            StaticRead(
                type: file.text(index), member: file.text(index + 2), caller: owner[scope],
                deferredBy: deferral[scope], token: Int32(index), line: Int32(file.tokens[index].line)))
    }

    /// What the call at `index` is made on: the first component of its member chain decides.
    private func receiver(ofCallAt index: Int) -> Receiver {
        var cursor = index
        while file.isPunct(cursor - 1, ASCII.dot) {
            var previous = cursor - 2
            if file.isPunct(previous, ASCII.question) || file.isPunct(previous, ASCII.bang) { previous -= 1 }
            if file.isPunct(previous, ASCII.closeParen) || file.isPunct(previous, ASCII.closeBracket) {
                let open = Int(file.matching[previous])
                guard open > 0, file.isIdentifier(open - 1) else { return .instance }
                previous = open - 1
            }
            guard file.isIdentifier(previous) else { return .instance }
            cursor = previous
        }
        if cursor == index { return .implicit }
        let word = file.word(cursor)
        if word == .`self` || word == .selfType { return .implicit }
        let first = file.text(cursor)
        return first.first?.isUppercase == true ? .type(first) : .instance
    }

    /// The name a call is made on when its receiver is that one name, optionally unwrapped, or `self.` and that name
    /// (`manager.start()`, `manager?.start()`, `self.manager.start()`); `nil` for any other receiver.
    private func receiverProperty(ofCallAt index: Int) -> String? {
        guard file.isPunct(index - 1, ASCII.dot) else { return nil }
        var name = index - 2
        if file.isPunct(name, ASCII.question) || file.isPunct(name, ASCII.bang) { name -= 1 }
        guard file.isIdentifier(name), file.word(name) == .none,
            !file.isPunct(name - 1, ASCII.dot)
                || file.word(name - 2) == .`self` && !file.isPunct(name - 3, ASCII.dot),
            isSmall(file.bytes[Int(file.tokens[name].start)]) || file.bytes[Int(file.tokens[name].start)] == 0x5F
        else { return nil }
        return file.text(name)
    }

    /// `let name: Type`, `var name: Type?`, `let name = Type(…)`, `let name = Type.shared` declared in a type's body:
    /// the type a call on the property reaches (`PropertyType`). A generic, collection, tuple or function type, or a
    /// value of any other form, is left out.
    private mutating func collectPropertyType(at index: Int) {
        let scope = Int(file.scopeOf[index])
        guard file.scopes[scope].kind == .type, typeOfScope[scope] >= 0, file.isIdentifier(index + 1),
            file.word(index + 1) == .none
        else { return }
        let owner = summary.types[Int(typeOfScope[scope])].name
        var cursor = index + 2
        var type: Int?
        if file.isPunct(cursor, ASCII.colon) {
            cursor += 1
            while file.isIdentifier(cursor), file.isPunct(cursor + 1, ASCII.dot), file.isIdentifier(cursor + 2) {
                cursor += 2
            }
            guard file.isIdentifier(cursor), file.word(cursor) == .none, !file.isPunct(cursor + 1, ASCII.less),
                !file.isPunct(cursor + 1, ASCII.dot)
            else { return }
            type = cursor
        } else if file.isPunct(cursor, ASCII.equals), file.isIdentifier(cursor + 1), file.word(cursor + 1) == .none,
            file.isPunct(cursor + 2, ASCII.openParen)
                || (file.isPunct(cursor + 2, ASCII.dot) && file.isIdentifier(cursor + 3)
                    && !file.isPunct(cursor + 4, ASCII.dot) && !file.isPunct(cursor + 4, ASCII.openParen))
        {
            type = cursor + 1
        }
        guard let type, file.text(type).first?.isUppercase == true else { return }
        summary.propertyTypes.append(PropertyType(owner: owner, name: file.text(index + 1), type: file.text(type)))
    }

    private func opensClosure(of callee: Int, at brace: Int) -> Bool {
        guard file.isPunct(brace, ASCII.openBrace) else { return false }
        let scope = file.scopes[Int(file.scopeOf[brace])]
        return scope.kind == .closure && Int(scope.open) == brace
    }

    private func value(of argument: Argument) -> ArgumentValue {
        let start = argument.start
        let end = argument.end
        guard end > start else { return .other("") }
        if end - start == 1 {
            switch file.tokens[start].kind {
            case .string: return file.stringValue(start).map(ArgumentValue.string) ?? .other(file.text(start))
            case .interpolatedString: return .interpolated(file.text(start))
            default: break
            }
        }
        var components: [String] = []
        // `&identifier`, passed inout, names the same value.
        var cursor = file.isPunct(start, ASCII.ampersand) && end - start > 1 ? start + 1 : start
        var pathEnd = end
        // `identifier!` and `identifier?` name the same value.
        while pathEnd - 1 > start, file.isPunct(pathEnd - 1, ASCII.bang) || file.isPunct(pathEnd - 1, ASCII.question) {
            pathEnd -= 1
        }
        if file.isPunct(cursor, ASCII.dot) {
            components.append("")
            cursor += 1
        }
        while cursor < pathEnd, file.isIdentifier(cursor) {
            components.append(file.text(cursor))
            cursor += 1
            if cursor < pathEnd, file.isPunct(cursor, ASCII.dot) { cursor += 1 } else { break }
        }
        if cursor == pathEnd, !components.isEmpty, components.last != "" { return .path(components) }
        return .other(file.text(from: start, through: end - 1))
    }

    private mutating func noteBackgroundFacts(
        name: String, at index: Int, call: Int32, arguments: [Argument], values: [ArgumentValue],
        trailingClosure: Bool, conditions: [UInt32]
    ) {
        let isMember = file.isPunct(index - 1, ASCII.dot)
        switch name {
        case "register":
            // `BGTaskScheduler.shared.register(…)`, or `register(…)` in an extension of `BGTaskScheduler` (a wrapper
            // the app calls through a protocol of its own, so that tests can pass a fake scheduler).
            guard isMember || enclosingTypeName(of: index) == "BGTaskScheduler", let first = arguments.first,
                first.label >= 0,
                file.is(first.label, "forTaskWithIdentifier")
            else { return }
            let handler = handlerClosure(ofCallAt: index, arguments: arguments)
            summary.registrations.append(
                RegistrationInfo(
                    kind: .scheduler, identifier: values[0], call: call, conditions: conditions,
                    continued: isContinuedProcessing(registrationAt: index), handlerOpen: handler.open,
                    handlerClose: handler.close))
            summary.needsDetailedPass = true
        case "backgroundTask":
            // `.backgroundTask(.appRefresh(…))` on a scene, or `backgroundTask(…)` in an extension of `Scene` (a
            // modifier of the app's own that wraps it).
            guard isMember || enclosingTypeName(of: index) == "Scene", let first = arguments.first,
                let identifier = appRefreshIdentifier(in: first)
            else { return }
            let handler = handlerClosure(ofCallAt: index, arguments: [])
            summary.registrations.append(
                RegistrationInfo(
                    kind: .sceneModifier, identifier: identifier, call: call, conditions: conditions,
                    continued: false, handlerOpen: handler.open, handlerClose: handler.close))
            summary.needsDetailedPass = true
        case "BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "BGHealthResearchTaskRequest",
            "BGContinuedProcessingTaskRequest":
            guard let first = arguments.first, first.label >= 0, file.is(first.label, "identifier") else { return }
            // A health research request is a processing request (its subclass).
            let kind: RequestInfo.Kind =
                switch name {
                case "BGAppRefreshTaskRequest": .refresh
                case "BGContinuedProcessingTaskRequest": .continued
                default: .processing
                }
            summary.requests.append(RequestInfo(kind: kind, identifier: values[0], call: call))
            if kind == .refresh { summary.needsDetailedPass = true }
        case "submit":
            // `BGTaskScheduler.shared.submit(request)`, `submit(request)` in an extension of `BGTaskScheduler`, or
            // `scheduler.submit(request)` in a file that makes the request.
            let inScheduler = enclosingTypeName(of: index) == "BGTaskScheduler"
            if isMember || inScheduler, mentionsScheduler, arguments.count == 1, arguments[0].label < 0 {
                let caller = Int(owner[Int(file.scopeOf[index])])
                summary.callables[caller].containsSubmit = true
            }
        case "beginBackgroundTask", "beginBackgroundTaskWithExpirationHandler", "beginBackgroundTaskWithName":
            summary.needsDetailedPass = true
        case "addObserver":
            // `addObserver(self, selector: #selector(flush), name: UIApplication.willResignActiveNotification, …)`:
            // the selector's method runs on every change of app state, like `applicationWillResignActive`.
            guard
                let name = arguments.first(where: { $0.label >= 0 && file.is($0.label, "name") }),
                namesStateChange(from: name.start, to: name.end),
                let selector = arguments.first(where: { $0.label >= 0 && file.is($0.label, "selector") }),
                let method = selectorMethod(selector)
            else { return }
            summary.stateChangeSelectors.insert(method)
            if names(["EnterBackground"], from: name.start, to: name.end) { summary.backgroundSelectors.insert(method) }
            if names(["EnterForeground", "BecomeActive"], from: name.start, to: name.end) {
                summary.returnSelectors.insert(method)
            }
        case "endBackgroundTask":
            if !values.isEmpty, !isInsideExpirationHandler(index), case .path(let components) = values[0],
                let last = components.last
            {
                let caller = owner[Int(file.scopeOf[index])]
                summary.taskEnds.append(TaskEnd(name: last, caller: caller))
                if components.count == 1, let source = boundSource(of: last, before: index) {
                    // `guard let task = backgroundTask else { return }; endBackgroundTask(task)` ends the property.
                    summary.taskEnds.append(TaskEnd(name: source, caller: caller))
                }
            }
        case "dataTask", "downloadTask", "uploadTask", "data", "download", "upload", "bytes":
            guard isMember, let receiver = receiverToken(ofMemberAt: index) else { return }
            summary.sessionUses.append(
                SessionUse(
                    reference: reference(to: receiver), caller: owner[Int(file.scopeOf[index])],
                    receiver: file.text(receiver), method: name,
                    labels: arguments.map {
                        $0.label >= 0 ? file.text($0.label) : "_"
                    }, hasTrailingClosure: trailingClosure, token: Int32(index), line: Int32(file.line(index)),
                    column: Int32(file.column(index))))
        case "URLSession":
            guard let first = arguments.first, first.label >= 0, file.is(first.label, "configuration") else { return }
            let configuration: SessionInfo.Configuration
            if containsBackgroundConfiguration(first.start, first.end) {
                configuration = .background
            } else if case .path(let components) = values[0], components.first != "" {
                configuration = .named(reference(components, caller: owner[Int(file.scopeOf[index])]))
            } else {
                configuration = .other
            }
            let delegate = arguments.firstIndex { $0.label >= 0 && file.is($0.label, "delegate") }
            let hasDelegate = delegate.map { file.word(arguments[$0].start) != .nil } ?? false
            let binding = binding(before: chainStart(endingAt: index))
            summary.sessions.append(
                SessionInfo(
                    binding: binding, isSession: true, configuration: configuration, hasDelegate: hasDelegate,
                    startsNoTask: !hasDelegate && startsNoTask(sessionMadeAt: index, binding: binding),
                    caller: owner[Int(file.scopeOf[index])], line: Int32(file.line(index)),
                    column: Int32(file.column(index))))
        case "background", "backgroundSessionConfiguration", "backgroundSessionConfigurationWithIdentifier":
            guard
                name != "background"
                    || arguments.first.map({ $0.label >= 0 && file.is($0.label, "withIdentifier") })
                        == true
            else { return }
            if let binding = binding(before: chainStart(endingAt: index)) {
                summary.sessions.append(
                    SessionInfo(
                        binding: binding, isSession: false, configuration: .background,
                        caller: owner[Int(file.scopeOf[index])], line: Int32(file.line(index))))
            }
        default:
            break
        }
    }

    /// Whether the session `URLSession(…)` at `index` makes is cancelled with all its tasks and given none
    /// (`invalidateAndCancel()`): by a call chained to it, or, bound to a local, where every later mention of that
    /// local in the block it is declared in cancels it or lists its tasks (`getAllTasks { … }`, which may read them
    /// before the cancel). One that lists its tasks but is never cancelled is not: rejoining a background session is
    /// how its events are delivered, and they go to the delegate.
    private func startsNoTask(sessionMadeAt index: Int, binding: Binding?) -> Bool {
        guard file.isPunct(index + 1, ASCII.openParen) else { return false }
        let close = Int(file.matching[index + 1])
        guard close > index else { return false }
        func member(after name: Int) -> String? {
            file.isPunct(name + 1, ASCII.dot) && file.isIdentifier(name + 2) ? file.text(name + 2) : nil
        }
        if member(after: close) == "invalidateAndCancel" { return true }
        guard let binding, case .local = binding.place else { return false }
        let block = file.scopes[Int(file.scopeOf[index])]
        let end = min(Int(block.close), file.count)
        var cancelled = false
        for cursor in (close + 1)..<max(close + 1, end)
        where file.isIdentifier(cursor) && file.text(cursor) == binding.name && !file.isPunct(cursor - 1, ASCII.dot) {
            switch member(after: cursor) {
            case "invalidateAndCancel": cancelled = true
            case "getAllTasks", "getTasksWithCompletionHandler": continue
            default: return false
            }
        }
        return cancelled
    }

    /// The braces of a handler closure written at the call: a `launchHandler: { … }` argument or a trailing closure.
    private func handlerClosure(ofCallAt index: Int, arguments: [Argument]) -> (open: Int32, close: Int32) {
        var open = -1
        if let argument = arguments.first(where: { $0.label >= 0 && file.is($0.label, "launchHandler") }) {
            open = file.isPunct(argument.start, ASCII.openBrace) ? argument.start : -1
        } else if file.isPunct(index + 1, ASCII.openParen) {
            let close = Int(file.matching[index + 1])
            if close > index, file.isPunct(close + 1, ASCII.openBrace) { open = close + 1 }
        }
        guard open >= 0, file.matching[open] > open else { return (-1, -1) }
        return (Int32(open), file.matching[open])
    }

    /// `.appRefresh(identifier)` inside the first argument of `.backgroundTask(…)`.
    private func appRefreshIdentifier(in argument: Argument) -> ArgumentValue? {
        var cursor = argument.start
        while cursor < argument.end {
            if file.is(cursor, "appRefresh"), file.isPunct(cursor + 1, ASCII.openParen) {
                guard let inner = file.arguments(ofCallAt: cursor + 1).first else { return nil }
                return value(of: inner)
            }
            cursor += 1
        }
        return nil
    }

    private func containsBackgroundConfiguration(_ start: Int, _ end: Int) -> Bool {
        var cursor = start
        while cursor < end {
            if file.is(cursor, "background") || file.is(cursor, "backgroundSessionConfiguration") {
                return true
            }
            cursor += 1
        }
        return false
    }

    /// Whether the registration at `index` is for a `BGContinuedProcessingTask`: its handler casts to that type, or
    /// the function registering it also builds a `BGContinuedProcessingTaskRequest` (Apple registers these per
    /// request, just before submitting).
    private func isContinuedProcessing(registrationAt index: Int) -> Bool {
        guard file.isPunct(index + 1, ASCII.openParen) else { return false }
        var end = Int(file.matching[index + 1])
        if end > 0, file.isPunct(end + 1, ASCII.openBrace) { end = Int(file.matching[end + 1]) }
        var cursor = index
        while cursor < end, cursor < file.count {
            if file.is(cursor, "BGContinuedProcessingTask") { return true }
            cursor += 1
        }
        guard let callable = file.callable(containing: index) else { return false }
        let scope = file.scopes[callable]
        for token in Int(scope.open)..<min(Int(scope.close), file.count)
        where file.is(token, "BGContinuedProcessingTaskRequest") {
            return true
        }
        return false
    }

    /// For a name bound to a copy of another earlier in the same body (`let task = backgroundTask`,
    /// `if let task = self.backgroundTask`, `guard let id = tokens.value`), the last component of what it copies.
    private func boundSource(of name: String, before index: Int) -> String? {
        var scope = Int(file.scopeOf[index])
        while scope > 0, !file.scopes[scope].isCallable, file.scopes[scope].kind != .closure {
            scope = Int(file.scopes[scope].parent)
        }
        let start = scope > 0 ? Int(file.scopes[scope].open) : 0
        var token = index - 1
        while token > start {
            defer { token -= 1 }
            guard file.word(token) == .let || file.word(token) == .var, file.isIdentifier(token + 1),
                file.text(token + 1) == name, file.isPunct(token + 2, ASCII.equals)
            else { continue }
            var cursor = token + 3
            if file.word(cursor) == .await { cursor += 1 }
            var last: String?
            while file.isIdentifier(cursor), !file.word(cursor).isReserved, file.word(cursor) != .await {
                if file.word(cursor) != .`self` { last = file.text(cursor) }
                cursor += 1
                if file.isPunct(cursor, ASCII.question) || file.isPunct(cursor, ASCII.bang) { cursor += 1 }
                guard file.isPunct(cursor, ASCII.dot) else { break }
                cursor += 1
            }
            // Only a plain copy: a call or an operator after the path makes a new value.
            if file.isPunct(cursor, ASCII.openParen) || file.isPunct(cursor, ASCII.openBracket) { return nil }
            return last
        }
        return nil
    }

    private func isInsideExpirationHandler(_ index: Int) -> Bool {
        var scope = Int(file.scopeOf[index])
        while scope > 0 {
            let current = file.scopes[scope]
            if current.isCallable { return false }
            if current.kind == .closure {
                if current.name >= 0, file.isBeginBackgroundTask(Int(current.name)) { return true }
                if current.label >= 0, file.is(Int(current.label), "expirationHandler") { return true }
            }
            scope = Int(current.parent)
        }
        return false
    }

    /// `session` in `session.dataTask`, `self.session.dataTask`, `backgroundSession?.dataTask`.
    private func receiverToken(ofMemberAt index: Int) -> Int? {
        guard file.isPunct(index - 1, ASCII.dot) else { return nil }
        var cursor = index - 2
        if file.isPunct(cursor, ASCII.question) || file.isPunct(cursor, ASCII.bang) { cursor -= 1 }
        guard file.isIdentifier(cursor) else { return nil }
        return cursor
    }

    /// What the name at `token` refers to, judged by what it is reached through: nothing (`session`), `self`,
    /// a type (`Uploader.session`, `Uploader.shared.session`), or an instance the audit cannot type.
    private func reference(to token: Int) -> Reference {
        let name = file.text(token)
        guard file.isPunct(token - 1, ASCII.dot) else { return .bare(name) }
        var previous = token - 2
        if file.isPunct(previous, ASCII.question) || file.isPunct(previous, ASCII.bang) { previous -= 1 }
        guard file.isIdentifier(previous) else { return .unknown }
        let word = file.word(previous)
        if word == .`self` {
            let caller = owner[Int(file.scopeOf[token])]
            return .member(name: name, type: summary.callables[Int(caller)].typeName)
        }
        if word == .selfType { return .member(name: name, type: enclosingTypeName(of: token)) }
        let qualifier = file.text(previous)
        if qualifier.first?.isUppercase == true { return .member(name: name, type: qualifier) }
        if file.isPunct(previous - 1, ASCII.dot), file.isIdentifier(previous - 2),
            !file.isPunct(previous - 3, ASCII.dot),
            file.text(previous - 2).first?.isUppercase == true
        {
            // `Type.shared.session`: a property of the singleton's type.
            return .member(name: name, type: file.text(previous - 2))
        }
        return .unknown
    }

    /// The same for a dotted argument (`config`, `self.config`, `Type.config`, `Type.shared.config`).
    private func reference(_ components: [String], caller: Int32) -> Reference {
        guard let name = components.last else { return .unknown }
        switch components.count {
        case 1: return .bare(name)
        case 2 where components[0] == "self": return .member(name: name, type: summary.callables[Int(caller)].typeName)
        case 2, 3:
            return components[0].first?.isUppercase == true ? .member(name: name, type: components[0]) : .unknown
        default: return .unknown
        }
    }

    private func enclosingTypeName(of token: Int) -> String? {
        file.enclosingType(ofScope: Int(file.scopeOf[token])).flatMap {
            typeOfScope[$0] >= 0 ? summary.types[Int(typeOfScope[$0])].name : nil
        }
    }

    /// Whether the code at `index` runs only after reading the app's `UIBackgroundModes` at run time: an `if` or
    /// `guard` around it whose condition names that key (a library that turns background updates on only for an
    /// app that declares the mode).
    private func checksBackgroundModes(around index: Int) -> Bool {
        var scope = Int(file.scopeOf[index])
        while scope > 0, !file.scopes[scope].isCallable {
            let head = Int(file.scopes[scope].head)
            let open = Int(file.scopes[scope].open)
            if head >= 0, head < open, file.word(head) == .if || file.word(head) == .guard,
                (head..<open).contains(where: { namesBackgroundModes($0) })
            {
                return true
            }
            scope = Int(file.scopes[scope].parent)
        }
        // `guard modes.contains("location") else { return }` earlier in the same body.
        guard let callable = file.callable(containing: index) else { return false }
        let open = Int(file.scopes[callable].open)
        return (open..<index).contains { namesBackgroundModes($0) }
    }

    /// The `UIBackgroundModes` key, or a test for the `location` mode in a set of modes read elsewhere
    /// (`Bundle.main.backgroundModes.contains("location")`, the set built by the project's own extension).
    private func namesBackgroundModes(_ token: Int) -> Bool {
        if file.stringValue(token) == "UIBackgroundModes" { return true }
        return file.stringValue(token) == "location" && file.isPunct(token - 1, ASCII.openParen)
            && file.is(token - 2, "contains")
    }

    /// Sessions and configurations bound to a name without being built with `URLSession(configuration:)`:
    /// `URLSession.shared`, and configurations from `URLSessionConfiguration.default` or `.ephemeral` (recorded so
    /// that such a name is not taken for a background one declared elsewhere). Also notes where
    /// `allowsBackgroundLocationUpdates` is set to `true`.
    private mutating func collectSessionValue(at index: Int) {
        guard file.isPunct(index + 1, ASCII.dot) else {
            if file.isPunct(index + 1, ASCII.equals), !file.isPunct(index + 2, ASCII.equals),
                file.is(index, "expirationHandler")
            {
                summary.assignsExpirationHandler = true
            }
            if file.is(index, "allowsBackgroundLocationUpdates"), file.isPunct(index + 1, ASCII.equals),
                file.word(index + 2) == .true, !checksBackgroundModes(around: index)
            {
                summary.backgroundLocationUpdates.append(file.location(index))
            }
            return
        }
        let isSession = file.is(index, "URLSession") && file.is(index + 2, "shared")
        let isConfiguration =
            file.is(index, "URLSessionConfiguration")
            && (file.is(index + 2, "default") || file.is(index + 2, "ephemeral"))
        guard isSession || isConfiguration, let binding = binding(before: index) else { return }
        summary.sessions.append(
            SessionInfo(
                binding: binding, isSession: isSession, configuration: .other,
                caller: owner[Int(file.scopeOf[index])], line: Int32(file.line(index))))
    }

    /// The first token of the member chain that ends at `index` (`URLSessionConfiguration` for
    /// `URLSessionConfiguration.background`, the `.` of an implicit member `.background`).
    private func chainStart(endingAt index: Int) -> Int {
        var cursor = index
        while cursor >= 1, file.isPunct(cursor - 1, ASCII.dot) {
            if file.isIdentifier(cursor - 2) {
                cursor -= 2
            } else {
                return cursor - 1
            }
        }
        return cursor
    }

    /// The name an expression starting at `start` is stored into, and where that name is declared: `let name = …`,
    /// `var name: T = …` (a local, a property or a global by where the declaration is), `self.name = …` and
    /// `name = …` (a property of the enclosing type), or the property a `lazy var name: T = { … return <expr> }()`
    /// initialises. `other.name = …` stores into an object the audit cannot type, so it gives `nil`.
    private func binding(before start: Int) -> Binding? {
        var equals = start - 1
        if file.word(equals) == .return || file.isPunct(equals, ASCII.openBrace) {
            var scope = Int(file.scopeOf[start])
            while scope > 0, file.scopes[scope].kind != .closure { scope = Int(file.scopes[scope].parent) }
            guard scope > 0 else { return nil }
            equals = Int(file.scopes[scope].open) - 1
        }
        guard file.isPunct(equals, ASCII.equals), !file.isPunct(equals - 1, ASCII.equals),
            !file.isPunct(equals - 1, ASCII.bang), !file.isPunct(equals - 1, ASCII.less),
            !file.isPunct(equals - 1, ASCII.greater)
        else { return nil }
        var cursor = equals - 1
        let line = file.line(equals)
        while cursor >= 0, file.line(cursor) == line, cursor > equals - 12 {
            let word = file.word(cursor)
            if word == .var || word == .let {
                guard file.isIdentifier(cursor + 1) else { return nil }
                return Binding(name: file.text(cursor + 1), place: place(ofDeclarationAt: cursor))
            }
            cursor -= 1
        }
        guard file.isIdentifier(equals - 1) else { return nil }
        let name = file.text(equals - 1)
        if file.isPunct(equals - 2, ASCII.dot), file.word(equals - 3) != .`self` { return nil }
        let caller = owner[Int(file.scopeOf[equals])]
        return Binding(name: name, place: summary.callables[Int(caller)].typeName.map { .member($0) } ?? .global)
    }

    private func place(ofDeclarationAt token: Int) -> Binding.Place {
        let scope = Int(file.scopeOf[token])
        switch file.scopes[scope].kind {
        case .type: return typeOfScope[scope] >= 0 ? .member(summary.types[Int(typeOfScope[scope])].name) : .global
        case .file: return .global
        default: return .local(owner[scope])
        }
    }

    // MARK: Flags and singletons

    /// A stored `var name = false` / `var name: Bool = false` outside functions (a flag), and a static property
    /// holding an instance of its own type (a singleton, whose properties live as long as the process).
    private mutating func collectStoredValue(at index: Int) {
        let nameToken = index + 1
        guard file.isIdentifier(nameToken), file.word(nameToken) == .none else { return }
        let scope = Int(file.scopeOf[index])
        let kind = file.scopes[scope].kind
        guard kind == .type || kind == .file else { return }
        var isStatic = false
        var back = index - 1
        let line = file.line(index)
        while back >= 0, back >= index - 6, file.line(back) == line {
            let word = file.word(back)
            if word == .static || word == .class {
                isStatic = true
                break
            }
            back -= 1
        }
        let typeName = kind == .type && typeOfScope[scope] >= 0 ? summary.types[Int(typeOfScope[scope])].name : nil
        var cursor = nameToken + 1
        if isStatic, let typeName, file.word(index) == .let || file.word(index) == .var {
            // `static let shared = Type()`, `= Self()`, `= .init()`, `static let shared: Type = …`.
            let typed =
                file.isPunct(cursor, ASCII.colon)
                && (file.isIdentifier(cursor + 1) && file.text(cursor + 1) == typeName
                    || file.word(cursor + 1) == .selfType)
            let value = cursor + 1
            let made =
                file.isPunct(cursor, ASCII.equals)
                && ((file.word(value) == .selfType || file.isIdentifier(value) && file.text(value) == typeName)
                    && file.isPunct(value + 1, ASCII.openParen)
                    || file.isPunct(value, ASCII.dot) && file.word(value + 1) == .`init`)
            if typed || made { summary.singletonTypes.append(typeName) }
        }
        guard file.word(index) == .var else { return }
        if file.isPunct(cursor, ASCII.colon) {
            guard file.is(cursor + 1, "Bool") else { return }
            cursor += 2
        }
        guard file.isPunct(cursor, ASCII.equals), file.word(cursor + 1) == .false else { return }
        let next = cursor + 2
        guard
            next >= file.count || file.startsStatement(next) || file.isPunct(next, ASCII.semicolon)
                || file.isPunct(next, ASCII.closeBrace)
        else { return }
        summary.flags.append(FlagDeclaration(name: file.text(nameToken), typeName: typeName, isStatic: isStatic))
    }

    /// `name = value` and `name.toggle()` (through any member chain), outside declarations: which names are set to
    /// `true`, and which to anything else.
    private mutating func collectAssignment(at index: Int) {
        if file.isPunct(index + 1, ASCII.dot), file.is(index + 2, "toggle"), file.isPunct(index + 3, ASCII.openParen) {
            noteReset(at: index)
            return
        }
        guard file.isPunct(index + 1, ASCII.equals), !file.isPunct(index + 2, ASCII.equals) else { return }
        let previous = file.word(index - 1)
        guard previous != .var, previous != .let, previous != .case, !file.isPunct(index - 1, ASCII.colon) else {
            return
        }
        if file.word(index + 2) == .true, !file.isPunct(index + 3, ASCII.ampersand),
            !file.isPunct(index + 3, ASCII.pipe)
        {
            summary.namesSetTrue.insert(file.text(index))
        } else {
            noteReset(at: index)
        }
    }

    private mutating func noteReset(at index: Int) {
        let name = file.text(index)
        summary.namesReset.insert(name)
        summary.resets.append(NameReset(name: name, caller: owner[Int(file.scopeOf[index])], token: Int32(index)))
    }

    // MARK: Local bindings

    /// Records the name at `index` as bound in the body of the callable around it (not in a type's body, where a
    /// `let` declares a property).
    private mutating func noteLocal(at index: Int) {
        guard file.isIdentifier(index), file.word(index) == .none else { return }
        let scope = Int(file.scopeOf[index])
        guard scope != 0, file.scopes[scope].kind != .type else { return }
        let callable = Int(owner[scope])
        guard summary.callables[callable].kind != .storedValues else { return }
        summary.callables[callable].locals.insert(file.text(index))
    }

    /// The names a `for` pattern binds: `for id in`, `for (id, info) in`, `for case let .task(id) in`.
    private mutating func notePatternLocals(after index: Int) {
        var cursor = index + 1
        let end = min(file.count, index + 24)
        while cursor < end, file.word(cursor) != .in {
            if file.isIdentifier(cursor), file.word(cursor) == .none, !file.isPunct(cursor - 1, ASCII.dot),
                !file.isPunct(cursor + 1, ASCII.openParen)
            {
                noteLocal(at: cursor)
            }
            cursor += 1
        }
    }

    /// A closure's parameters, `{ id in` or `{ (id, info) in`: the names between the `{` and `in`.
    private mutating func noteClosureParameters(before index: Int) {
        var cursor = index - 1
        var names: [Int] = []
        while cursor > 0, index - cursor < 16 {
            if file.isPunct(cursor, ASCII.openBrace) {
                for name in names { noteLocal(at: name) }
                return
            }
            if file.isIdentifier(cursor), file.word(cursor) == .none {
                // A type annotation (`id: String`) names no binding.
                if !file.isPunct(cursor - 1, ASCII.colon), !file.isPunct(cursor - 1, ASCII.dot) { names.append(cursor) }
            } else if !file.isPunct(cursor, ASCII.comma), !file.isPunct(cursor, ASCII.openParen),
                !file.isPunct(cursor, ASCII.closeParen), !file.isPunct(cursor, ASCII.colon)
            {
                return
            }
            cursor -= 1
        }
    }

    /// `let name = "literal"`, `let name: String = "literal"`, `var name: String { "literal" }` and
    /// `var name: String { return "literal" }`.
    private mutating func collectConstant(at index: Int) {
        let nameToken = index + 1
        guard file.isIdentifier(nameToken), file.word(nameToken) == .none else { return }
        var cursor = nameToken + 1
        if file.isPunct(cursor, ASCII.colon) {
            guard file.is(cursor + 1, "String") else { return }
            cursor += 2
        }
        var valueToken: Int
        if file.isPunct(cursor, ASCII.equals) {
            valueToken = cursor + 1
            guard valueToken < file.count,
                file.tokens[valueToken].kind == .string || file.tokens[valueToken].kind == .interpolatedString
            else { return }
            let next = valueToken + 1
            guard
                next >= file.count || file.startsStatement(next) || file.isPunct(next, ASCII.semicolon)
                    || file.isPunct(next, ASCII.closeBrace)
            else { return }
        } else if file.isPunct(cursor, ASCII.openBrace) {
            valueToken = cursor + 1
            if file.word(valueToken) == .return { valueToken += 1 }
            guard valueToken < file.count,
                file.tokens[valueToken].kind == .string || file.tokens[valueToken].kind == .interpolatedString,
                file.isPunct(valueToken + 1, ASCII.closeBrace)
            else { return }
        } else {
            return
        }
        if file.tokens[valueToken].kind == .interpolatedString {
            // Built at run time: kept as written, a pattern whose interpolations may be any text.
            addConstant(name: file.text(nameToken), value: file.text(valueToken), at: index, isPattern: true)
            return
        }
        guard let value = file.stringValue(valueToken) else { return }
        addConstant(name: file.text(nameToken), value: value, at: index)
    }

    /// Whether the declaration whose `let`, `var` or `case` is at `index` is `static` or `class`, behind any other
    /// modifiers (`private static let`).
    private func isStaticDeclaration(at index: Int) -> Bool {
        var cursor = index - 1
        while cursor >= 0, file.isIdentifier(cursor) {
            let word = file.word(cursor)
            if word == .static || word == .class { return true }
            guard word == .none || word == .lazy else { return false }
            cursor -= 1
        }
        return false
    }

    private mutating func addConstant(name: String, value: String, at index: Int, isPattern: Bool = false) {
        let scope = Int(file.scopeOf[index])
        let kind = file.scopes[scope].kind
        var typeName: String?
        var callable: Int32 = -1
        if kind == .type {
            typeName = typeOfScope[scope] >= 0 ? summary.types[Int(typeOfScope[scope])].name : nil
        } else if scope != 0 {
            callable = owner[scope]
            typeName = summary.callables[Int(callable)].typeName
        }
        summary.constants.append(
            ConstantInfo(
                typeName: typeName, name: name, value: value, callable: callable, isPattern: isPattern,
                isStatic: kind == .type && isStaticDeclaration(at: index)))
    }

    /// `case name = "raw"` in any enum, and `case name` in an enum whose raw type is `String`.
    private mutating func collectEnumCases(at index: Int) {
        let scope = Int(file.scopeOf[index])
        guard file.scopes[scope].kind == .type, file.word(Int(file.scopes[scope].head)) == .enum,
            typeOfScope[scope] >= 0
        else { return }
        let isStringEnum = summary.types[Int(typeOfScope[scope])].inherits.contains("String")
        var cursor = index + 1
        while file.isIdentifier(cursor), file.word(cursor) == .none {
            let name = file.text(cursor)
            if file.isPunct(cursor + 1, ASCII.equals), let value = file.stringValue(cursor + 2) {
                addConstant(name: name, value: value, at: index)
                cursor += 3
            } else if file.isPunct(cursor + 1, ASCII.openParen) {
                return
            } else {
                if isStringEnum { addConstant(name: name, value: name, at: index) }
                cursor += 1
            }
            guard file.isPunct(cursor, ASCII.comma) else { return }
            cursor += 1
        }
    }
}
