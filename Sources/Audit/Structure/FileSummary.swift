/// What one file contributes to the cross-file analysis: its declarations, calls, string constants and the
/// background-execution facts found in it. Token positions refer to the file's `SourceFile`, which is rebuilt
/// from the same bytes when a rule needs to look closer.
struct FileSummary: Sendable {
    var path: String
    /// The lines an iOS device build does not compile (`SourceFile.unbuiltLines`).
    var unbuiltLines: [ClosedRange<Int>] = []
    /// Whether only app targets of the tree's Xcode projects compile the file (an app's own source, not a library's).
    var isAppSource = false
    var types: [TypeInfo] = []
    /// `callables[0]` is the file's top-level code.
    var callables: [CallableInfo] = []
    var calls: [CallInfo] = []
    var constants: [ConstantInfo] = []
    var propertyTypes: [PropertyType] = []
    var registrations: [RegistrationInfo] = []
    var requests: [RequestInfo] = []
    var sessions: [SessionInfo] = []
    var sessionUses: [SessionUse] = []
    /// Names passed to `endBackgroundTask(_:)` outside an expiration handler, with the callable each is ended in.
    var taskEnds: [TaskEnd] = []
    /// Capitalised names (of types, as far as this file can tell) written outside a declaration or extension of a type
    /// of that name, as code or inside a string literal: a type no file names so is never made.
    var namesOutsideOwnType: Set<String> = []
    /// Reads of a static member of a type (`Manager.shared`): the first read runs the type's static stored values.
    var staticReads: [StaticRead] = []
    /// Writes `"BGTaskSchedulerPermittedIdentifiers": …` as a dictionary entry: a manifest that generates the app's
    /// Info.plist (Tuist's `InfoPlist.extendingDefault(with:)`), whose permitted list the tree does not hold.
    var generatesPermittedIdentifiers = false
    /// Writes `"UIBackgroundModes": …` as a dictionary entry, as such a manifest does.
    var generatesBackgroundModes = false
    /// Whether the file assigns an `expirationHandler` anywhere (`task.expirationHandler = …`).
    var assignsExpirationHandler = false
    /// `allowsBackgroundLocationUpdates = true`, each place it is set.
    var backgroundLocationUpdates: [SourceLocation] = []
    /// Callables that are `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
    var backgroundEventHandlers: [Int32] = []
    /// Whether a rule must read this file's tokens again (handlers, push callbacks, background tasks).
    var needsDetailedPass = false
    /// `var name = false` (or `var name: Bool = false`) declared outside any function.
    var flags: [FlagDeclaration] = []
    /// Names assigned the literal `true` (`name = true`, `self.name = true`, `Type.name = true`).
    var namesSetTrue: Set<String> = []
    /// Names assigned anything other than the literal `true`, or toggled: a flag of that name may be reset.
    var namesReset: Set<String> = []
    /// Types that keep an instance of themselves in a static property (`static let shared = Type()`).
    var singletonTypes: [String] = []
    /// Methods registered with `NotificationCenter` for a change of app state (`#selector(willResignActive)` with
    /// `UIApplication.willResignActiveNotification`): they run each time the app changes state.
    var stateChangeSelectors: Set<String> = []
    /// Of those, the ones registered for entering the background, and for coming back (`…WillEnterForeground…`,
    /// `…DidBecomeActive…`): the observer's counterparts of `applicationDidEnterBackground` and its return callbacks.
    var backgroundSelectors: Set<String> = []
    var returnSelectors: Set<String> = []
    /// Where a name is assigned anything other than the literal `true`, or toggled.
    var resets: [NameReset] = []
}

extension FileSummary {
    /// Whether an iOS device build leaves line `line` out (`unbuiltLines`).
    func isUnbuilt(line: Int) -> Bool { unbuiltLines.contains { $0.contains(line) } }
}

/// A name passed to `endBackgroundTask(_:)` outside an expiration handler, and the callable that call is made in: a
/// function only expiration handlers call ends the task only when time runs out, never on the normal path.
struct TaskEnd: Sendable {
    var name: String
    var caller: Int32
}

/// A name set back (`flag = false`, `flag.toggle()`): the callable it happens in and its token.
struct NameReset: Sendable {
    var name: String
    var caller: Int32
    var token: Int32
}

/// A Boolean stored variable declared outside any function, with what decides how long it keeps its value: a
/// global or a `static` property lives as long as the process, a property as long as its object.
struct FlagDeclaration: Sendable {
    var name: String
    /// `nil` for a global.
    var typeName: String?
    var isStatic: Bool
}

struct TypeInfo: Sendable {
    var name: String
    var inherits: [String]
    /// An `extension` of the type, not its declaration.
    var isExtension = false
    /// Declared at the top level of its file, not inside another type.
    var isTopLevel = true
    /// Marked `@objcMembers` or `@objc`: the Objective-C runtime may call every member.
    var exposesMembers = false
    /// Marked as the program's entry (`@main`, `@UIApplicationMain`, `@NSApplicationMain`).
    var isEntry = false
}

/// Code that runs as a unit when something calls it.
struct CallableInfo: Sendable {
    enum Kind: UInt8, Sendable {
        case function, initializer, property, topLevel
        /// The initial values of a type's stored properties, which run when an instance is made.
        case storedValues
    }

    var kind: Kind
    var name: String
    /// External argument labels, `_` for unlabelled parameters.
    var labels: [String] = []
    /// Internal parameter names, in order.
    var parameters: [String] = []
    /// Whether each parameter has a default value, so that a call may leave it out.
    var defaulted: [Bool] = []
    /// Whether each parameter is declared with a function type (`completion: @escaping (Bool) -> Void`).
    var takesClosure: [Bool] = []
    /// The type the first parameter is declared with, its last name (`CLLocationManager` for
    /// `_ manager: CLLocationManager`), or `nil`.
    var firstParameterType: String?
    var isAsync = false
    /// Declared to return a value (`-> Bool`), not `Void`.
    var returnsValue = false
    /// Declared `public` or `open`: code outside the sources (the app a library is built into) may call it.
    var isPublic = false
    /// Declared `private` or `fileprivate`: only its own file calls it.
    var isPrivate = false
    /// Declared `static` or `class`: called on its type, never on an instance (`client?.setup()` is not it).
    var isStatic = false
    /// Marked so that code outside the Swift sources may call it though they never do (`FactCollector.exposingModifiers`,
    /// or an attribute with arguments).
    var isExposed = false
    var typeName: String?
    /// The scope holding the body (for `.storedValues`, the type's scope; for `.topLevel`, 0).
    var scope: Int32
    /// The body's `{` for a function, initialiser or computed property (`-1` for the others), so that a rule can
    /// place a call inside or outside it without rebuilding the file's tokens.
    var open: Int32 = -1
    var line: Int32
    /// The line of the body's `}` (0 when there is no body).
    var closeLine: Int32 = 0
    /// Calls `BGTaskScheduler.submit(_:)` itself.
    var containsSubmit = false
    /// Names the body binds to values other than a string literal (`let id = task.identifier`, `for (id, info) in`,
    /// a closure's `{ id in`): such a name in the body means that value, not a constant of the same name elsewhere.
    var locals: Set<String> = []

    /// `name(label:label:)`, as Swift documentation spells a function.
    var signature: String {
        switch kind {
        case .property, .topLevel, .storedValues: name
        case .function, .initializer: "\(name)(\(labels.map { "\($0):" }.joined()))"
        }
    }
}

/// How an argument was written, as far as identifier resolution cares.
enum ArgumentValue: Sendable, Hashable {
    case string(String)
    case interpolated(String)
    /// `name`, `Type.name`, `.name`, `Type.name.rawValue`: the dotted components (`""` first for `.name`).
    case path([String])
    case other(String)

    /// The text a reader would recognise in a message.
    var display: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .interpolated(let text), .other(let text): text
        case .path(let components): components.joined(separator: ".")
        }
    }
}

/// What a call is made on, as far as resolving it to a declaration needs.
enum Receiver: Sendable, Hashable {
    /// `foo()`, `self.foo()`, `Self.foo()`: the caller's own type, or a global function.
    case implicit
    /// `Type.foo()`, `Type.shared.foo()`, `Type(…)`: a method of (or reached through) a named type.
    case type(String)
    /// `value.foo()`: a method of some instance whose type the audit does not know.
    case instance
}

/// A read of a type's static member (`Manager.shared`), not a call.
struct StaticRead: Sendable {
    var type: String
    var member: String
    /// The local callable it is read in.
    var caller: Int32
    /// As a call's: the closure that runs later the read sits in (`Task`, `.onAppear` …), if any.
    var deferredBy: String?
    var token: Int32
    var line: Int32
}

struct CallInfo: Sendable {
    var name: String
    var receiver: Receiver = .implicit
    var labels: [String]
    var arguments: [ArgumentValue]
    /// A closure follows the call's parentheses (`sync { … }`), passed to a parameter after the labelled ones.
    var hasTrailingClosure = false
    /// A function named, not called (`launchHandler: handleRefresh`): it may take any parameters.
    var isReference = false
    /// The local callable the call is made from.
    var caller: Int32
    /// When the call sits in a closure that runs later (`.onAppear`, `Task`, `DispatchQueue.main.async` …),
    /// how to name that closure in a message.
    var deferredBy: String?
    /// Made in a closure that runs on every change of app state (a `NotificationCenter` observer).
    var onStateChange = false
    /// Made in a background task's expiration handler, which runs only when time runs out.
    var inExpirationHandler = false
    /// For a call made on one name (`manager.start()`, `manager?.start()`, `self.manager.start()`), that name: when it
    /// is a property of the caller's type, its declared type (`FileSummary.propertyTypes`) tells which type's method is
    /// called.
    var receiverProperty: String?
    var token: Int32
    var line: Int32
    var column: Int32
}

/// A property of a type with the type it is declared or made with: `let manager: SyncManager`, `var store =
/// Store()`, `private let client = Client.shared`.
struct PropertyType: Sendable {
    var owner: String
    var name: String
    var type: String
}

struct ConstantInfo: Sendable {
    var typeName: String?
    var name: String
    var value: String
    /// The local callable for a local constant, `-1` for a member or global.
    var callable: Int32
    /// The value is an interpolated literal as written (`"\(bundle).refresh"`), known only up to its interpolations.
    var isPattern = false
    /// A `static` or `class` member, which an instance (`task.identifier`) cannot name.
    var isStatic = false
}

struct RegistrationInfo: Sendable {
    enum Kind: UInt8, Sendable {
        /// `BGTaskScheduler.shared.register(forTaskWithIdentifier:using:launchHandler:)`.
        case scheduler
        /// SwiftUI's `.backgroundTask(.appRefresh(identifier))` scene modifier.
        case sceneModifier
    }

    var kind: Kind
    var identifier: ArgumentValue
    var call: Int32
    /// `#if` branches the registration sits in, as `group << 16 | branch`.
    var conditions: [UInt32]
    /// The handler belongs to a `BGContinuedProcessingTask`, which may be registered after launch.
    var continued: Bool
    /// The `{` and `}` of the handler when it is a closure written at the call (`-1` for a function reference).
    var handlerOpen: Int32 = -1
    var handlerClose: Int32 = -1
}

struct RequestInfo: Sendable {
    enum Kind: UInt8, Sendable { case refresh, processing, continued }
    var kind: Kind
    var identifier: ArgumentValue
    var call: Int32
}

/// Where a name is declared, which decides which uses of the name refer to it.
struct Binding: Sendable, Hashable {
    enum Place: Sendable, Hashable {
        /// A local of the callable with this index in the file's `callables`.
        case local(Int32)
        /// A property (stored, computed or assigned through `self.`) of the named type.
        case member(String)
        /// A global, or a property of code the audit cannot place.
        case global
    }

    var name: String
    var place: Place
}

/// How a use names what it refers to: `session` (`.bare`), `self.session` (`.member` of the caller's type),
/// `Uploader.shared.session` (`.member` of `Uploader`), or through an instance of a type the audit cannot tell.
enum Reference: Sendable, Hashable {
    case bare(String)
    case member(name: String, type: String?)
    case unknown
}

/// A `URLSession` or `URLSessionConfiguration` bound to a name (or, for a session, made without one).
struct SessionInfo: Sendable {
    enum Configuration: Sendable, Hashable {
        case background
        /// Made from the configuration the reference names.
        case named(Reference)
        case other
    }

    /// `nil` for a session made without being stored under a name the audit can read.
    var binding: Binding?
    /// `true` for a session, `false` for a configuration.
    var isSession: Bool
    var configuration: Configuration
    /// For a session: whether `URLSession(configuration:delegate:delegateQueue:)` is given a delegate.
    var hasDelegate = false
    /// For a session: it is only cancelled where it is made, never given a task (`URLSession(configuration:
    /// .background(withIdentifier: old), delegate: nil, delegateQueue: nil)`, then `invalidateAndCancel()`): it has
    /// no results to report.
    var startsNoTask = false
    /// The callable the declaration is in, from which its configuration's name is resolved.
    var caller: Int32 = 0
    /// Where it is made (for a configuration, where it is bound): of locals of one name in one callable, the one a
    /// name refers to is the latest made before it.
    var line: Int32 = 0
    var column: Int32 = 0
}

/// A task-creating call on something that may be a background session.
struct SessionUse: Sendable {
    var reference: Reference
    /// The callable the use is in.
    var caller: Int32
    var receiver: String
    var method: String
    var labels: [String]
    var hasTrailingClosure: Bool
    var token: Int32
    var line: Int32
    var column: Int32
}
