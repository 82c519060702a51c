// One file for the project's index: the callables, their calls and the lookups the checks make of them share one
// set of tables, built in one pass and read-only after it.

/// A callable in the project: file index and index in that file's `callables`.
struct CallableID: Hashable, Sendable {
    var file: Int32
    var index: Int32
}

/// A call in the project: file index and index in that file's `calls`.
struct CallID: Hashable, Sendable {
    var file: Int32
    var index: Int32
}

/// A task identifier as far as the sources tell it.
enum IdentifierValue: Hashable, Sendable {
    case known(String)
    /// Built at run time or ambiguous; carries the expression so that two uses of the same expression match.
    case unknown(String)
}

/// An identifier and the call that supplied it: the registration or request itself, or, when the identifier
/// came in through a parameter, the outermost call that passed it.
struct ResolvedIdentifier: Hashable, Sendable {
    var value: IdentifierValue
    var origin: CallID
}

/// Whether code runs while the app is launching.
enum LaunchContext: Sendable {
    case launch
    /// Runs after launch; `reason` completes "… runs …" in a message.
    case afterLaunch(reason: String)
    case unknown
}

/// Facts from every file, joined: who calls whom, which functions submit requests, which names hold which
/// string constants, and which types conform to what.
final class ProjectIndex {
    let files: [FileSummary]
    /// Every file's callables and calls in one array each, so a lookup does not go through a `FileSummary`.
    private var callables: [CallableInfo] = []
    private var callableStart: [Int] = []
    private var calls: [CallInfo] = []
    private var callStart: [Int] = []
    /// Functions by name; initialisers and stored values by their type's name (what a constructor call spells).
    private var byName: [String: [CallableID]] = [:]
    /// The same, keyed by name and declaring type (`nil` for global functions).
    private var byNameAndType: [NameKey: [CallableID]] = [:]
    private var byNameAndFile: [NameKey: [CallableID]] = [:]
    private var callersOf: [CallableID: [CallID]] = [:]
    private(set) var submitting: Set<CallableID> = []
    /// The names of the functions in `submitting`: a name no such function has needs no resolving.
    private(set) var submittingNames: Set<String> = []
    private var inherits: [String: Set<String>] = [:]
    private var constantsByName: [String: [(file: Int32, constant: ConstantInfo)]] = [:]
    private var launchMemo: [CallableID: LaunchContext] = [:]
    private var stateChangeMemo: [CallableID: Bool] = [:]
    /// Methods registered as observers of a change of app state, in any file.
    private var stateChangeSelectors: Set<String> = []
    /// Every type the sources declare, so that a delegate callback's first parameter is known to be a system object.
    private var declaredTypes: Set<String> = []
    /// Types marked `@objcMembers` or `@objc` (a declaration or an extension).
    private var exposedTypes: Set<String> = []
    /// Types the sources declare, not only extend.
    private var typeDeclarations: Set<String> = []
    /// Types marked as the program's entry (`@main`, `@UIApplicationMain`).
    private var entryTypes: Set<String> = []
    /// The type of each property of a type (`FileSummary.propertyTypes`), by its name and owner; a property declared
    /// with two types (in `#if` branches) has none.
    private var propertyTypes: [NameKey: String?] = [:]
    /// Reads of a static member (`Manager.shared`) by the type's name, with the file each is in.
    private var staticReads: [String: [(file: Int32, read: StaticRead)]] = [:]

    private struct NameKey: Hashable {
        var name: String
        var scope: String?
    }

    init(files: [FileSummary]) {
        self.files = files
        for (fileIndex, file) in files.enumerated() {
            callableStart.append(callables.count)
            callables += file.callables
            callStart.append(calls.count)
            calls += file.calls
            for type in file.types where !type.name.isEmpty {
                declaredTypes.insert(type.name)
                if !type.isExtension { typeDeclarations.insert(type.name) }
                inherits[type.name, default: []].formUnion(type.inherits)
                if type.exposesMembers { exposedTypes.insert(type.name) }
                if type.isEntry { entryTypes.insert(type.name) }
            }
            for (index, callable) in file.callables.enumerated() {
                // A function an iOS device build leaves out (the stub in an `#else` of `#if canImport(CallKit)`) is
                // never what a call reaches there.
                if file.isUnbuilt(line: Int(callable.line)) { continue }
                let id = CallableID(file: Int32(fileIndex), index: Int32(index))
                let name: String
                switch callable.kind {
                case .function:
                    name = callable.name
                case .initializer, .storedValues:
                    guard let typeName = callable.typeName else { continue }
                    name = typeName
                case .property, .topLevel:
                    continue
                }
                byName[name, default: []].append(id)
                byNameAndType[NameKey(name: name, scope: callable.typeName), default: []].append(id)
                byNameAndFile[NameKey(name: name, scope: file.path), default: []].append(id)
            }
            for constant in file.constants {
                constantsByName[constant.name, default: []].append((Int32(fileIndex), constant))
            }
            for property in file.propertyTypes {
                let key = NameKey(name: property.name, scope: property.owner)
                if let known = propertyTypes[key] {
                    if known != property.type { propertyTypes[key] = .some(nil) }
                } else {
                    propertyTypes[key] = property.type
                }
            }
            stateChangeSelectors.formUnion(file.stateChangeSelectors)
            for read in file.staticReads { staticReads[read.type, default: []].append((Int32(fileIndex), read)) }
        }
        for (fileIndex, file) in files.enumerated() {
            for (index, call) in file.calls.enumerated() where byName[call.name] != nil {
                // Nor is a call such a build leaves out (`#if os(macOS)`) a call of anything.
                if file.isUnbuilt(line: Int(call.line)) { continue }
                let id = CallID(file: Int32(fileIndex), index: Int32(index))
                for callee in resolve(call: call, from: Int32(fileIndex)) { callersOf[callee, default: []].append(id) }
            }
        }
        computeSubmitting()
    }

    func callable(_ id: CallableID) -> CallableInfo { callables[callableStart[Int(id.file)] + Int(id.index)] }

    /// The types that name each type among what they inherit from, built once when first asked.
    private lazy var subtypesOf: [String: [String]] = {
        var result: [String: [String]] = [:]
        for (type, parents) in inherits {
            for parent in parents { result[parent, default: []].append(type) }
        }
        return result
    }()

    /// Whether a parameter declared with `typeName` is one a launch handler hands its `BGTask` to: a `BG…` type, or
    /// the project's own protocol that such a type is made to conform to (`extension BGTask: TaskType {}`).
    func standsForBackgroundTask(_ typeName: String) -> Bool {
        typeName.hasPrefix("BG") || (subtypesOf[typeName] ?? []).contains { $0.hasPrefix("BG") }
    }

    /// The methods of the same name and labels declared in types that inherit, directly or two levels down, from
    /// the type that declares method `id`: the overrides a call to it may run instead (a base class's empty
    /// `updateLocalData(…)` and the subclass the app installs).
    func overrides(of id: CallableID) -> [CallableID] {
        let method = callable(id)
        guard method.kind == .function, let base = method.typeName, let children = subtypesOf[base] else { return [] }
        var subtypes = children.filter { $0 != base }
        for child in subtypes {
            for grandchild in subtypesOf[child] ?? [] where grandchild != base && !subtypes.contains(grandchild) {
                subtypes.append(grandchild)
            }
        }
        return subtypes.sorted().flatMap { type in
            (byNameAndType[NameKey(name: method.name, scope: type)] ?? []).filter {
                callable($0).kind == .function && callable($0).labels == method.labels
            }
        }
    }
    func call(_ id: CallID) -> CallInfo { calls[callStart[Int(id.file)] + Int(id.index)] }
    func caller(of id: CallID) -> CallableID { CallableID(file: id.file, index: call(id).caller) }
    func callers(of id: CallableID) -> [CallID] { callersOf[id] ?? [] }

    /// The calls the sources write with `name`, wherever the index joined them.
    func calls(named name: String) -> [CallID] { callsByName[name] ?? [] }

    private lazy var callsByName: [String: [CallID]] = {
        var byName: [String: [CallID]] = [:]
        for file in files.indices {
            for index in callStart[file]..<(file + 1 < callStart.count ? callStart[file + 1] : calls.count) {
                byName[calls[index].name, default: []].append(
                    CallID(file: Int32(file), index: Int32(index - callStart[file])))
            }
        }
        return byName
    }()

    /// Whether `call`, which the index joined to no function, may still be a call of `id`: its labels fit `id`'s, and
    /// it is not made on a type the sources do not declare (`UIApplication.shared.beginBackgroundTask { … }` beside
    /// the app's own `beginBackgroundTask()`). Such a call is left unjoined when too many functions share the name.
    /// Swift 2 left a method's first label out of its calls (`upload(image)` for `func upload(anImage: UIImage)`):
    /// such a call may reach it too.
    func mayReach(_ call: CallID, _ id: CallableID) -> Bool {
        var info = self.call(call)
        if case .type(let name) = info.receiver, !declaredTypes.contains(name) { return false }
        if !accepting([id], info).isEmpty { return true }
        guard info.labels.first == "_", let first = callable(id).labels.first, first != "_" else { return false }
        info.labels[0] = first
        return !accepting([id], info).isEmpty
    }

    /// Whether the index joined `call` to some function by what it is made on: a named type, or the caller's own type
    /// or the global functions, not a value whose type it cannot tell.
    func isJoinedByType(_ call: CallID) -> Bool {
        let info = self.call(call)
        if case .instance = info.receiver { return typedCandidates(info, from: call.file) != nil }
        return !resolve(call: info, from: call.file).isEmpty
    }

    /// Whether the sources declare a type `name` (not only extend it).
    func declares(type name: String) -> Bool { typeDeclarations.contains(name) }

    /// Whether some file names type `name` outside its own declarations and extensions (`FileSummary.namesOutsideOwnType`).
    func namedOutsideItself(_ name: String) -> Bool { namesOutsideOwnTypes.contains(name) }

    /// Whether a member of type `name` is `public` or `open`.
    func hasPublicMembers(_ name: String) -> Bool { typesWithPublicMembers.contains(name) }

    private lazy var namesOutsideOwnTypes: Set<String> = files.reduce(into: []) { $0.formUnion($1.namesOutsideOwnType) }
    private lazy var typesWithPublicMembers: Set<String> = files.reduce(into: []) { names, file in
        names.formUnion(file.callables.lazy.filter(\.isPublic).compactMap(\.typeName))
    }

    func location(of id: CallID) -> SourceLocation {
        let call = call(id)
        return SourceLocation(file: files[Int(id.file)].path, line: Int(call.line), column: Int(call.column))
    }

    /// More candidates than this for one call means the name is too common to tell which one is meant (`setup()`
    /// in every view controller); such a call is left unresolved rather than joined to all of them.
    static let candidateLimit = 4

    /// Project callables a call may reach: same base name, the call's argument labels a prefix of the
    /// declaration's (defaulted and trailing-closure parameters may be left out), narrowed by what the call is made
    /// on: the named type for `Type.foo()`, the declared type of the caller's property for `manager.foo()` and
    /// `self.manager.foo()`, the caller's own type and then global functions for `foo()`. A constructor call
    /// `Type(…)` reaches the type's initialisers and the initial values of its stored properties.
    func resolve(call: CallInfo, from file: Int32) -> [CallableID] {
        guard let all = byName[call.name] else { return [] }
        if case .type(let typeName) = call.receiver, call.name.first?.isUppercase != true,
            !declaredTypes.contains(typeName)
        {
            // A type the sources do not declare (`CATransaction.begin()`): its own method, unless the sources extend
            // it with this one.
            return narrowed(accepting(byNameAndType[NameKey(name: call.name, scope: typeName)] ?? [], call), file)
        }
        if all.count == 1 { return accepting(all, call) }
        if call.name.first?.isUppercase == true {
            return narrowed(accepting(byNameAndType[NameKey(name: call.name, scope: call.name)] ?? [], call), file)
        }
        switch call.receiver {
        case .type(let typeName):
            let inType = accepting(byNameAndType[NameKey(name: call.name, scope: typeName)] ?? [], call)
            if !inType.isEmpty { return narrowed(inType, file) }
        case .implicit:
            if let typed = typedCandidates(call, from: file) { return typed }
            if let callerType = callable(CallableID(file: file, index: call.caller)).typeName {
                let own = accepting(byNameAndType[NameKey(name: call.name, scope: callerType)] ?? [], call)
                if !own.isEmpty { return narrowed(own, file) }
            }
            let globals = accepting(byNameAndType[NameKey(name: call.name, scope: nil)] ?? [], call)
            if !globals.isEmpty { return narrowed(globals, file) }
        case .instance:
            if let typed = typedCandidates(call, from: file) { return typed }
        }
        if all.count <= Self.candidateLimit { return accepting(all, call) }
        let local = accepting(byNameAndFile[NameKey(name: call.name, scope: files[Int(file)].path)] ?? [], call)
        return local.count <= Self.candidateLimit ? local : []
    }

    /// For a call on a property of the caller's type (`manager.start()`, `self.manager.start()`) whose declared type
    /// the sources declare (`let manager: SyncManager`), the methods of that name of the type, of the types it inherits
    /// from, and of the types that inherit from it (overrides, conformers of a protocol); `nil` when the property's type
    /// is not known, the caller binds a local of the name, or no such method fits the call.
    private func typedCandidates(_ call: CallInfo, from file: Int32) -> [CallableID]? {
        guard let property = call.receiverProperty else { return nil }
        let caller = callable(CallableID(file: file, index: call.caller))
        guard let owner = caller.typeName, !caller.locals.contains(property), !caller.parameters.contains(property),
            let known = propertyTypes[NameKey(name: property, scope: owner)], let type = known,
            declaredTypes.contains(type)
        else { return nil }
        // Up the supertypes the sources declare, and down the subtypes, each way on its own (a sibling that shares a
        // protocol is no type the property can hold).
        func walk(_ next: (String) -> [String]) -> [String] {
            var found: [String] = [type]
            var index = 0
            while index < found.count, found.count < 16 {
                for related in next(found[index]).sorted()
                where declaredTypes.contains(related) && !found.contains(related) {
                    found.append(related)
                }
                index += 1
            }
            return found
        }
        let types = walk { Array(self.inherits[$0] ?? []) } + walk { self.subtypesOf[$0] ?? [] }.dropFirst()
        let candidates = accepting(
            types.flatMap { byNameAndType[NameKey(name: call.name, scope: $0)] ?? [] }, call)
        return candidates.isEmpty ? nil : narrowed(candidates, file)
    }

    /// The candidates whose argument labels the call's labels can be a prefix of; a call on a value reaches no
    /// `static` method.
    private func accepting(_ candidates: [CallableID], _ call: CallInfo) -> [CallableID] {
        candidates.filter { id in
            let callee = callable(id)
            if call.receiver == .instance, callee.isStatic { return false }
            switch callee.kind {
            case .storedValues:
                return true
            case .initializer, .function:
                return call.isReference
                    || Self.accepts(call.labels, callee, trailingClosure: call.hasTrailingClosure)
            case .property, .topLevel:
                return false
            }
        }
    }

    /// Whether `parameterPositions(of:in:)` finds a position for every label, without building the array (this runs
    /// for every call while the call graph is built).
    private static func accepts(_ labels: [String], _ callee: CallableInfo, trailingClosure: Bool) -> Bool {
        var parameter = 0
        let count = callee.labels.count
        for label in labels {
            while parameter < count, callee.labels[parameter] != label {
                guard parameter < callee.defaulted.count, callee.defaulted[parameter] else { return false }
                parameter += 1
            }
            guard parameter < count else { return false }
            parameter += 1
        }
        // A trailing closure needs a parameter after the labelled ones (`sync { … }` is not `sync()`); without one,
        // every parameter after them has a default (`schedule()` is not `schedule(_ call:)`).
        if trailingClosure { return parameter < count }
        return (parameter..<count).allSatisfy { $0 < callee.defaulted.count && callee.defaulted[$0] }
    }

    /// For each of a call's argument labels, the position of the parameter it passes: labels in order, parameters
    /// skipped between them only when they have a default value; parameters after the last label may be left out
    /// (defaulted, or trailing closures). `nil` when the call cannot be to `callee`.
    static func parameterPositions(of labels: [String], in callee: CallableInfo) -> [Int]? {
        var positions: [Int] = []
        var parameter = 0
        for label in labels {
            while parameter < callee.labels.count, callee.labels[parameter] != label {
                guard parameter < callee.defaulted.count, callee.defaulted[parameter] else { return nil }
                parameter += 1
            }
            guard parameter < callee.labels.count else { return nil }
            positions.append(parameter)
            parameter += 1
        }
        return positions
    }

    private func narrowed(_ candidates: [CallableID], _ file: Int32) -> [CallableID] {
        if candidates.count <= Self.candidateLimit { return candidates }
        let local = candidates.filter { $0.file == file }
        return !local.isEmpty && local.count <= Self.candidateLimit ? local : []
    }

    static func unique(_ resolved: [CallableID], in index: ProjectIndex, from file: Int32) -> CallableID? {
        let candidates = resolved.filter {
            index.callable($0).kind == .function || index.callable($0).kind == .initializer
        }
        if candidates.count == 1 { return candidates[0] }
        let local = candidates.filter { $0.file == file }
        return local.count == 1 ? local[0] : nil
    }

    /// A request built in `callable` counts as submitted when that function submits (itself or through a call),
    /// or when it is a factory whose caller submits what it returns.
    func isSubmitted(fromCallable callable: CallableID) -> Bool {
        if submitting.contains(callable) { return true }
        return callers(of: callable).contains { submitting.contains(caller(of: $0)) }
    }

    /// Callbacks that run every time the app moves between foreground and background.
    private static let recurringCallbacks: Set<String> = [
        "applicationDidEnterBackground", "sceneDidEnterBackground", "applicationWillResignActive",
        "sceneWillResignActive", "applicationDidBecomeActive", "sceneDidBecomeActive",
        "applicationWillEnterForeground", "sceneWillEnterForeground",
    ]

    /// Whether the call is made each time the app changes state — from one of `recurringCallbacks`, a method
    /// registered with `NotificationCenter` for a change of state (`#selector(willResignActive)`), an observer closure
    /// for one, or a SwiftUI `.onChange`/`.onReceive` closure — directly or through up to three calls.
    func isRecurring(_ id: CallID) -> Bool {
        let call = call(id)
        if call.onStateChange { return true }
        if let deferredBy = call.deferredBy, deferredBy.contains(".onChange") || deferredBy.contains(".onReceive") {
            return true
        }
        return runsOnStateChange(caller(of: id), depth: 0)
    }

    /// Whether `callable` runs each time the app changes state (see `isRecurring(_:)`).
    func runsOnStateChange(_ callable: CallableID) -> Bool { runsOnStateChange(callable, depth: 0) }

    private func runsOnStateChange(_ callable: CallableID, depth: Int) -> Bool {
        if let known = stateChangeMemo[callable] { return known }
        // Cycles and deep chains end as "no"; the answer is kept so each function is looked at once.
        stateChangeMemo[callable] = false
        let info = self.callable(callable)
        var result =
            Self.recurringCallbacks.contains(info.name)
            || info.kind == .function && stateChangeSelectors.contains(info.name)
        if !result, depth < 3 {
            result = callers(of: callable).contains { id in
                let call = call(id)
                if call.onStateChange { return true }
                if let deferredBy = call.deferredBy,
                    deferredBy.contains(".onChange") || deferredBy.contains(".onReceive")
                {
                    return true
                }
                return runsOnStateChange(caller(of: id), depth: depth + 1)
            }
        }
        stateChangeMemo[callable] = result
        return result
    }

    /// Whether `callable` runs on each of a stream of system events: it runs on every change of app state
    /// (`runsOnStateChange(_:)`), or it is itself a delegate callback — a method nothing in the sources calls, whose
    /// first, unlabelled parameter is an object of a type the sources do not declare and that the method is named
    /// after (`locationManager(_ manager: CLLocationManager, didUpdateLocations:)`, `urlSession(_: URLSession, …)`),
    /// other than launch. The system calls such a method again on the same delegate for the next event, whatever the
    /// earlier call left running. (A function it calls may work on an object made anew for each event, so only the
    /// callback's own body counts.)
    func runsOnEachEvent(_ callable: CallableID) -> Bool {
        runsOnStateChange(callable) || isDelegateCallback(callable)
    }

    private func isDelegateCallback(_ id: CallableID) -> Bool {
        let info = callable(id)
        guard info.kind == .function, info.labels.first == "_", let type = info.firstParameterType,
            info.name.count >= 4, type.count > info.name.count, !declaredTypes.contains(type),
            type.lowercased().hasSuffix(info.name.lowercased()), callers(of: id).isEmpty
        else { return false }
        return !info.labels.contains { $0.hasSuffix("FinishLaunchingWithOptions") }
    }

    private func computeSubmitting() {
        var seeds: [CallableID] = []
        for (fileIndex, file) in files.enumerated() {
            for (index, callable) in file.callables.enumerated() where callable.containsSubmit {
                seeds.append(CallableID(file: Int32(fileIndex), index: Int32(index)))
            }
        }
        submitting = withCallers(seeds)
        submittingNames = Set(submitting.map { callable($0).name })
    }

    /// `seeds` and every callable that calls one of them, directly or through other calls.
    func withCallers(_ seeds: [CallableID]) -> Set<CallableID> {
        var result = Set(seeds)
        var work = seeds
        while let next = work.popLast() {
            for callID in callers(of: next) {
                let caller = caller(of: callID)
                if result.insert(caller).inserted { work.append(caller) }
            }
        }
        return result
    }

    // MARK: Types

    func conformances(of typeName: String?) -> Set<String> {
        guard let typeName else { return [] }
        return inherits[typeName] ?? []
    }

    /// Supertypes outside the sources that ask no method of a type's own (`ObservableObject`, `Codable`'s
    /// `encode(to:)` aside, a raw value's type): conforming to one makes no method callable from outside.
    private static let quietSupertypes: Set<String> = [
        "NSObject", "ObservableObject", "App", "View", "Identifiable", "Equatable", "Hashable", "Comparable",
        "Codable", "Encodable", "Decodable", "Sendable", "Error", "LocalizedError", "CaseIterable",
        "CustomStringConvertible", "CustomDebugStringConvertible", "AnyObject", "Actor", "String", "Int", "UInt",
        "Double", "Float", "Character",
    ]

    /// Supertypes outside the sources whose calls into a type are known: a UIKit class calls only the methods a
    /// subclass overrides (`override`, which keeps a method alive by itself), and a delegate protocol's requirements
    /// all begin with one of its prefixes. A method of another name is none of theirs.
    private static let supertypeRequirementPrefixes: [String: [String]] = [
        "UIResponder": [], "UIViewController": [], "UIView": [],
        "UIApplicationDelegate": ["application"], "UIWindowSceneDelegate": ["scene", "windowScene", "window"],
        "UISceneDelegate": ["scene"], "UNUserNotificationCenterDelegate": ["userNotificationCenter"],
        "PKPushRegistryDelegate": ["pushRegistry"], "CLLocationManagerDelegate": ["locationManager"],
        "URLSessionDelegate": ["urlSession"], "URLSessionTaskDelegate": ["urlSession"],
        "URLSessionDataDelegate": ["urlSession"], "URLSessionDownloadDelegate": ["urlSession"],
    ]

    /// `typeName` and the types of the sources it inherits from, directly or through one another (`declared`), and the
    /// supertypes they name that the sources do not declare, less the quiet ones (`outside`). A supertype the sources
    /// only extend (`extension UITableViewController`) is still outside them.
    private func supertypes(of typeName: String) -> (declared: Set<String>, outside: Set<String>) {
        var declared: Set<String> = []
        var outside: Set<String> = []
        var work = [typeName]
        while let type = work.popLast() {
            guard declared.insert(type).inserted else { continue }
            for parent in inherits[type] ?? [] where !Self.quietSupertypes.contains(parent) {
                if typeDeclarations.contains(parent) { work.append(parent) } else { outside.insert(parent) }
            }
        }
        return (declared, outside)
    }

    /// Whether code outside the sources may call method `member` of `typeName`, which they never call: the type (or a
    /// type of the sources it inherits from) conforms to, or inherits from, one the sources do not declare — whose
    /// requirement or delegate callback the method may be, unless that supertype's calls are known and none is of
    /// this name — or the Objective-C runtime may call its members.
    func membersCallableFromOutside(_ typeName: String, member: String) -> Bool {
        let supertypes = supertypes(of: typeName)
        if !exposedTypes.isDisjoint(with: supertypes.declared) { return true }
        return supertypes.outside.contains { parent in
            Self.supertypeRequirementPrefixes[parent].map { $0.contains(where: member.hasPrefix) }
                ?? Self.mayBeDelegateCallback(member, of: parent)
        }
    }

    /// Whether `member` may be a callback of `supertype`, a protocol of code outside the sources: any member may, unless
    /// the protocol is a delegate's (`MessagingDelegate`, `GIDSignInDelegate`), whose callbacks begin, by Cocoa's
    /// convention, with the name of the object that sends them (`messaging(_:didReceiveRegistrationToken:)`,
    /// `sign(_:didSignInFor:withError:)`): its first word, after the framework's prefix or with it (`URLSession`'s
    /// `urlSession`).
    private static func mayBeDelegateCallback(_ member: String, of supertype: String) -> Bool {
        guard supertype.hasSuffix("Delegate"), supertype.count > "Delegate".count else { return true }
        var words: [String] = []
        var word = ""
        let sender = Array(supertype.dropLast("Delegate".count))
        for (position, character) in sender.enumerated() {
            let startsWord =
                character.isUppercase && position > 0
                && (!sender[position - 1].isUppercase
                    || position + 1 < sender.count && sender[position + 1].isLowercase)
            if startsWord, !word.isEmpty {
                words.append(word)
                word = ""
            }
            word.append(character)
        }
        words.append(word)
        let name = member.lowercased()
        return words.prefix(2).contains { name.hasPrefix($0.lowercased()) }
    }

    /// Delegate protocols of the system's frameworks: the system calls an object that conforms to one once code has
    /// made it and handed it over, but never makes one itself.
    private static let delegateProtocols: Set<String> = [
        "CLLocationManagerDelegate", "PKPushRegistryDelegate", "CXProviderDelegate", "CXCallObserverDelegate",
        "URLSessionDelegate", "URLSessionTaskDelegate", "URLSessionDataDelegate", "URLSessionDownloadDelegate",
        "UNUserNotificationCenterDelegate", "CBCentralManagerDelegate", "CBPeripheralDelegate", "WCSessionDelegate",
    ]

    /// Whether something outside the sources may make an instance of `typeName`: it (or a type of the sources it
    /// inherits from) has a supertype the sources do not declare that is no mere delegate protocol
    /// (`delegateProtocols`): a view controller a storyboard names, a scene delegate an Info.plist names, a library's
    /// base class. Being exposed to Objective-C is not enough: Objective-C code that makes it names it, and its files
    /// are searched for the name (`Project.namedInOtherSources`).
    func mayBeMadeOutside(_ typeName: String) -> Bool {
        supertypes(of: typeName).outside.contains { !Self.delegateProtocols.contains($0) }
    }

    /// Whether a protocol or superclass of `typeName` that the sources declare declares a function `name` as well: a
    /// call through it may be joined to its declaration alone.
    func inheritsRequirement(named name: String, into typeName: String) -> Bool {
        var seen: Set<String> = [typeName]
        var work = Array(inherits[typeName] ?? [])
        while let parent = work.popLast() {
            guard seen.insert(parent).inserted, declaredTypes.contains(parent) else { continue }
            if byNameAndType[NameKey(name: name, scope: parent)]?.isEmpty == false { return true }
            work += inherits[parent] ?? []
        }
        return false
    }

    /// Whether the sources hold an app's entry (an `App`, an app delegate): then they show what launch reaches, and a
    /// function they never call is not one the app calls. Sources without one (a library, a snippet) are called by
    /// code the audit does not see.
    private(set) lazy var hasAppEntry: Bool = declaredTypes.contains { isAppType($0) }

    /// An app delegate a SwiftUI app never installs: the entry is a SwiftUI `App`, and no
    /// `@UIApplicationDelegateAdaptor(Delegate.self)`, `@main` or other code names the delegate, so UIKit never makes it.
    func isUninstalledAppDelegate(_ typeName: String) -> Bool {
        conformances(of: typeName).contains { $0.hasSuffix("ApplicationDelegate") } && !entryTypes.contains(typeName)
            && hasSwiftUIEntry && !namedOutsideItself(typeName)
    }

    /// Whether the sources' entries include a SwiftUI `App`, whose UI lives in scenes.
    var hasSwiftUIEntry: Bool { entryTypes.contains { conformances(of: $0).contains("App") } }

    /// Whether type `name` is marked as the program's entry (`@main`, `@UIApplicationMain`).
    func isEntry(_ name: String) -> Bool { entryTypes.contains(name) }

    /// Whether type `typeName` is the app's: a SwiftUI `App`, or an application delegate, also one that subclasses a
    /// framework's (`FlutterAppDelegate`, React Native's `RCTAppDelegate`).
    func isAppType(_ typeName: String?) -> Bool {
        conformances(of: typeName).contains {
            $0 == "App" || $0.hasSuffix("ApplicationDelegate")
                || $0.hasSuffix("AppDelegate") && !typeDeclarations.contains($0)
        }
    }

    /// SwiftUI views and scenes, UIKit view controllers and scene delegates: code that exists only after launch.
    func isUserInterfaceType(_ typeName: String?) -> Bool {
        conformances(of: typeName).contains {
            $0 == "View" || $0 == "Scene" || $0.hasSuffix("ViewController") || $0 == "UIHostingController"
                || $0.hasSuffix("SceneDelegate") || $0 == "UIView"
        }
    }

    // MARK: Identifiers

    /// What `value`, written in `callable`, evaluates to. A parameter is followed to every call that passes it
    /// (up to four calls deep); a name is looked up among string constants, preferring a `Type.` qualifier, then
    /// the same function, type and file.
    func resolveIdentifier(_ value: ArgumentValue, in callable: CallableID, origin: CallID, depth: Int = 0)
        -> [ResolvedIdentifier]
    {
        switch value {
        case .string(let text):
            return [ResolvedIdentifier(value: .known(text), origin: origin)]
        case .interpolated(let text):
            return [ResolvedIdentifier(value: .unknown(text), origin: origin)]
        case .other(let text):
            return [ResolvedIdentifier(value: .unknown(concatenation(text, in: callable) ?? text), origin: origin)]
        case .path(var components):
            if components.last == "rawValue", components.count > 1 { components.removeLast() }
            guard let name = components.last else { return [] }
            let info = self.callable(callable)
            let isBare = components.count == 1 || (components.count == 2 && components[0] == "self")
            if isBare, let parameter = info.parameters.firstIndex(of: name) {
                return resolveParameter(parameter, of: callable, depth: depth, fallback: value, origin: origin)
            }
            let qualifier = components.count >= 2 ? components[components.count - 2] : nil
            return [
                ResolvedIdentifier(
                    value: constant(named: name, qualifier: qualifier, in: callable, display: value),
                    origin: origin)
            ]
        }
    }

    private func resolveParameter(
        _ parameter: Int, of callable: CallableID, depth: Int, fallback: ArgumentValue, origin: CallID
    ) -> [ResolvedIdentifier] {
        let callers = callers(of: callable)
        let info = self.callable(callable)
        guard depth < 4, !callers.isEmpty else {
            return [ResolvedIdentifier(value: .unknown(fallback.display), origin: origin)]
        }
        var result: [ResolvedIdentifier] = []
        for callID in callers {
            let call = call(callID)
            let argument = Self.parameterPositions(of: call.labels, in: info)?.firstIndex(of: parameter)
            guard let argument, argument < call.arguments.count else {
                result.append(ResolvedIdentifier(value: .unknown(fallback.display), origin: callID))
                continue
            }
            result += resolveIdentifier(
                call.arguments[argument], in: caller(of: callID), origin: callID,
                depth: depth + 1)
        }
        return result
    }

    /// A concatenation of literals and constants (`processingTaskID + ".\(index)"`) as the interpolated literal it
    /// amounts to (`"uk.example.processing.\(…)"`), so that its literal parts can be read like one written so; `nil`
    /// for any other expression. An operand the sources cannot tell is an interpolation.
    private func concatenation(_ text: String, in callable: CallableID) -> String? {
        var operands: [String] = []
        var current = ""
        var inString = false
        var depth = 0
        var previous: Character = " "
        for character in text {
            if character == "\"", previous != "\\" { inString.toggle() }
            if !inString, character == "(" || character == "[" { depth += 1 }
            if !inString, character == ")" || character == "]" { depth -= 1 }
            if !inString, depth == 0, character == "+" {
                operands.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        operands.append(current)
        guard operands.count > 1 else { return nil }
        var built = ""
        for operand in operands.map({ String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }) {
            if operand.hasPrefix("\""), operand.hasSuffix("\""), operand.count >= 2, !operand.hasPrefix("\"\"\"") {
                built += operand.dropFirst().dropLast()
                continue
            }
            let components = operand.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let name = components.last, !components.contains(where: { $0.isEmpty || !Self.isName($0) }) else {
                built += "\\(…)"
                continue
            }
            let qualifier = components.count >= 2 ? components[components.count - 2] : nil
            switch constant(named: name, qualifier: qualifier, in: callable, display: .path(components)) {
            case .known(let value) where !value.contains("\\") && !value.contains("\""):
                built += value
            case .unknown(let written) where written.hasPrefix("\"") && written.hasSuffix("\"") && written.count >= 2:
                built += written.dropFirst().dropLast()
            default:
                built += "\\(…)"
            }
        }
        return "\"" + built + "\""
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    private func constant(named name: String, qualifier: String?, in callable: CallableID, display: ArgumentValue)
        -> IdentifierValue
    {
        guard let candidates = constantsByName[name] else { return .unknown(display.display) }
        let info = self.callable(callable)
        let tiers: [[(file: Int32, constant: ConstantInfo)]]
        if let qualifier, let first = qualifier.first, first.isUppercase, qualifier != "Self" {
            tiers = [candidates.filter { $0.constant.typeName == qualifier }]
        } else if qualifier == nil, info.locals.contains(name) {
            // A name the body binds itself (`for (identifier, info) in …`) is that value, unless it is a literal.
            tiers = [candidates.filter { $0.file == callable.file && $0.constant.callable == callable.index }]
        } else if let qualifier, qualifier != "self", qualifier != "Self", !qualifier.isEmpty {
            // `task.identifier`, `Type.shared.identifier`: a member of an instance, never a `static` constant.
            tiers = [candidates.filter { $0.constant.callable < 0 && !$0.constant.isStatic }]
        } else {
            tiers = [
                candidates.filter { $0.file == callable.file && $0.constant.callable == callable.index },
                candidates.filter {
                    $0.constant.callable < 0 && $0.constant.typeName != nil
                        && $0.constant.typeName == info.typeName
                },
                candidates.filter { $0.file == callable.file && $0.constant.callable < 0 },
                candidates.filter { $0.constant.callable < 0 },
            ]
        }
        for tier in tiers where !tier.isEmpty {
            let values = Set(tier.map(\.constant.value))
            guard values.count == 1, let value = values.first else { return .unknown(display.display) }
            // Built at run time: unknown, shown as written so its literal parts can still be read.
            return tier.contains(where: \.constant.isPattern) ? .unknown(value) : .known(value)
        }
        return .unknown(display.display)
    }

    // MARK: Launch

    /// Whether `callable` runs during launch: it is a launch callback (`application(_:didFinishLaunchingWithOptions:)`,
    /// `application(_:willFinishLaunchingWithOptions:)`, an `App`'s or app delegate's initialiser, `main.swift`), runs
    /// after it (a view, a scene or view-controller callback, another `UIApplicationDelegate` callback), or takes
    /// the context of the calls that reach it.
    func launchContext(of callable: CallableID) -> LaunchContext {
        var visiting: Set<CallableID> = []
        return launchContext(of: callable, visiting: &visiting)
    }

    private static let launchCallbacks: Set<String> = [
        "application(_:didFinishLaunchingWithOptions:)", "application(_:willFinishLaunchingWithOptions:)",
        "applicationDidFinishLaunching(_:)", "applicationWillFinishLaunching(_:)",
    ]
    private static let afterLaunchCallbacks: Set<String> = [
        "viewDidLoad", "viewWillAppear", "viewDidAppear", "loadView", "awakeFromNib", "sceneDidBecomeActive",
        "sceneWillEnterForeground", "sceneDidEnterBackground", "sceneWillResignActive", "scene",
        "applicationDidBecomeActive", "applicationWillEnterForeground", "applicationDidEnterBackground",
        "applicationWillResignActive", "application",
    ]

    /// Whether the system calls `callable` itself: a launch, lifecycle or scene callback, or top-level code.
    func isSystemEntry(_ callable: CallableID) -> Bool {
        let info = self.callable(callable)
        if info.kind == .topLevel { return true }
        guard info.kind == .function else { return false }
        return Self.launchCallbacks.contains(info.signature) || Self.afterLaunchCallbacks.contains(info.name)
            || Self.recurringCallbacks.contains(info.name)
    }

    private func launchContext(of id: CallableID, visiting: inout Set<CallableID>) -> LaunchContext {
        if let known = launchMemo[id] { return known }
        guard visiting.insert(id).inserted else { return .unknown }
        defer { visiting.remove(id) }
        let info = callable(id)
        let context = intrinsicContext(info, file: Int(id.file)) ?? contextFromCallers(of: id, visiting: &visiting)
        launchMemo[id] = context
        return context
    }

    private func intrinsicContext(_ info: CallableInfo, file: Int) -> LaunchContext? {
        let typeName = info.typeName.map { "`\($0)`" } ?? ""
        switch info.kind {
        case .topLevel:
            return files[file].path.hasSuffix("/main.swift") || files[file].path == "main.swift" ? .launch : nil
        case .initializer, .storedValues:
            if isAppType(info.typeName) { return .launch }
            if isUserInterfaceType(info.typeName) {
                return .afterLaunch(reason: "when \(typeName) is created, which happens after launch")
            }
            return nil
        case .property:
            if info.name == "body", isUserInterfaceType(info.typeName) || isAppType(info.typeName) {
                return .afterLaunch(reason: "in the `body` of \(typeName), which SwiftUI evaluates after launch")
            }
            return isUserInterfaceType(info.typeName)
                ? .afterLaunch(reason: "in \(typeName), a view that exists only after launch") : nil
        case .function:
            if Self.launchCallbacks.contains(info.signature) { return .launch }
            if Self.afterLaunchCallbacks.contains(info.name) {
                return .afterLaunch(reason: "in `\(info.signature)`, which runs after launch has finished")
            }
            if isUserInterfaceType(info.typeName) {
                return .afterLaunch(
                    reason: "in `\(info.signature)` of \(typeName), a view that exists only after launch")
            }
            if info.name == "load", info.parameters.isEmpty, conformances(of: info.typeName).contains("CAPPlugin") {
                // Capacitor makes its plugins, and calls their `load()`, when the bridge's view controller loads.
                return .afterLaunch(
                    reason: "in `load()` of the Capacitor plugin \(typeName), which the bridge calls once its view "
                        + "controller has loaded, after launch")
            }
            return nil
        }
    }

    /// Whether some chain of calls reaches `callable` during launch (whatever other calls reach it after).
    func reachedAtLaunch(_ callable: CallableID) -> Bool {
        var visiting: Set<CallableID> = []
        return reachedAtLaunch(callable, visiting: &visiting)
    }

    private func reachedAtLaunch(_ id: CallableID, visiting: inout Set<CallableID>) -> Bool {
        guard visiting.insert(id).inserted else { return false }
        switch intrinsicContext(callable(id), file: Int(id.file)) {
        case .launch: return true
        case .afterLaunch: return false
        case .unknown, nil: break
        }
        return callers(of: id).contains { callID in
            call(callID).deferredBy == nil && reachedAtLaunch(caller(of: callID), visiting: &visiting)
        }
    }

    private func contextFromCallers(of id: CallableID, visiting: inout Set<CallableID>) -> LaunchContext {
        var sawLaunch = false
        let info = callable(id)
        // A type's static stored values run once, at the first read of one (`Manager.shared`): a read at launch runs
        // them then, whatever reads come later; when every read comes after launch, so do they.
        if info.kind == .storedValues, let typeName = info.typeName, let reads = staticReads[typeName] {
            var later: LaunchContext?
            for read in reads.sorted(by: { ($0.file, $0.read.token) < ($1.file, $1.read.token) }) {
                // A read in the type's own initialiser or stored values runs once they have run: never the first.
                let reader = callable(CallableID(file: read.file, index: read.read.caller))
                if reader.typeName == typeName, reader.kind == .initializer || reader.kind == .storedValues { continue }
                let place = "\(Self.fileName(files[Int(read.file)].path)):\(read.read.line)"
                let here = "`\(typeName).\(read.read.member)`, read at \(place)"
                if let deferredBy = read.read.deferredBy {
                    later = later ?? .afterLaunch(reason: "in \(here) inside \(deferredBy), which runs after launch")
                    continue
                }
                switch launchContext(of: CallableID(file: read.file, index: read.read.caller), visiting: &visiting) {
                case .launch: return .launch
                case .afterLaunch(let reason): later = later ?? .afterLaunch(reason: "in \(here) \(reason)")
                case .unknown: later = .unknown
                }
            }
            if let later, case .afterLaunch = later { return later }
        }
        for callID in callers(of: id).sorted(by: { location(of: $0) < location(of: $1) }) {
            let call = call(callID)
            let place = location(of: callID)
            let here = "`\(info.signature)`, called at \(Self.short(place))"
            if let deferredBy = call.deferredBy {
                return .afterLaunch(reason: "in \(here) inside \(deferredBy), which runs after launch has finished")
            }
            switch launchContext(of: caller(of: callID), visiting: &visiting) {
            case .launch: sawLaunch = true
            case .afterLaunch(let reason): return .afterLaunch(reason: "in \(here) \(reason)")
            case .unknown: break
            }
        }
        return sawLaunch ? .launch : .unknown
    }

    /// `AppDelegate.swift:12`: enough for a reader to find the place in a message.
    static func short(_ location: SourceLocation) -> String {
        "\(fileName(location.file)):\(location.line)"
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
