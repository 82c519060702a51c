/// Everything an audit read: the joined index, each file's bytes (to rebuild its tokens when a rule looks
/// closer), and the permitted identifiers of every `Info.plist`.
final class Project {
    let index: ProjectIndex
    let sources: [[UInt8]]
    let propertyLists: [PermittedIdentifiers]
    /// Paths of sources in languages the audit does not parse (`SourceTree.otherSources`), read on demand.
    let otherSources: [String]
    /// An app target's Info.plist, named by its Xcode project, is not in the tree (ignored by git, made by the build):
    /// what the app permits and which background modes it has cannot be read.
    let lacksAppInfoPlist: Bool
    /// Paths of project manifests (`SourceTree.manifests`), read on demand.
    let manifests: [String]
    /// Paths of READMEs (`SourceTree.documents`), read on demand.
    let documents: [String]
    private var otherSourceText: [String]?
    private var objectiveCSourceText: [String]?
    private var manifestText: [String]?
    private var documentText: [String]?
    private var cache: [Int: SourceFile] = [:]
    private var callsByToken: [Int: [Int32: Int32]] = [:]
    private var resolvedCalls: [Site: [CallableID]] = [:]
    private var assignedClosures: [String: [Site]] = [:]
    /// `isUnreachable`'s and `isDeadType`'s answers, and how often each name of a function that may be dead is
    /// written in the sources.
    var unreachable: [CallableID: Bool] = [:]
    var deadTypes: [String: Bool] = [:]
    lazy var mentions: [String: Int] = Self.mentionCounts(in: index, sources: sources)
    /// Rebuilt files kept at once; tokens take several times the bytes of the source, so big trees are not kept.
    private static let cacheLimit = 64

    init(
        summaries: [FileSummary], sources: [[UInt8]], propertyLists: [PermittedIdentifiers],
        otherSources: [String] = [], manifests: [String] = [], documents: [String] = [], lacksAppInfoPlist: Bool = false
    ) {
        self.lacksAppInfoPlist = lacksAppInfoPlist
        precondition(summaries.count == sources.count, "one summary per source")
        index = ProjectIndex(files: summaries)
        self.sources = sources
        self.propertyLists = propertyLists
        self.otherSources = otherSources
        self.manifests = manifests
        self.documents = documents
    }

    /// Whether `text` appears in a source the audit does not parse (an Objective-C file, a React Native app's
    /// JavaScript): an identifier named there may be registered there.
    func namedInOtherSources(_ text: String) -> Bool { Self.named(text, in: otherSources, read: &otherSourceText) }

    /// Whether `text` appears in an Objective-C source (`.m`, `.mm`): the only other language whose code can make an
    /// instance of a Swift class (Dart, Kotlin or JavaScript code that spells the name names something of its own).
    func namedInObjectiveCSources(_ text: String) -> Bool {
        Self.named(text, in: objectiveCSources, read: &objectiveCSourceText)
    }

    private lazy var objectiveCSources = otherSources.filter { $0.hasSuffix(".m") || $0.hasSuffix(".mm") }

    /// Whether `text` appears in a project manifest (XcodeGen's `project.yml`), which may write the app's `Info.plist`.
    func namedInManifests(_ text: String) -> Bool { Self.named(text, in: manifests, read: &manifestText) }

    /// Whether one of `phrases`, in lower case, appears in a README, whatever its case.
    func namedInDocuments(_ phrases: [String]) -> Bool {
        phrases.contains { Self.named($0, in: documents, read: &documentText, lowercased: true) }
    }

    /// Whether `text` appears in one of the files at `paths`, which are read once, the first time this is asked, into
    /// `read` (in lower case when `lowercased`); a file over 2 MB or unreadable is left out.
    private static func named(_ text: String, in paths: [String], read: inout [String]?, lowercased: Bool = false)
        -> Bool
    {
        if read == nil {
            read = paths.compactMap { path in
                guard case .success(let bytes) = SourceTree.read(path), bytes.count <= 2 << 20 else { return nil }
                let text = String(decoding: bytes, as: UTF8.self)
                return lowercased ? text.lowercased() : text
            }
        }
        return read?.contains { $0.contains(text) } ?? false
    }

    var fileCount: Int { sources.count }

    func summary(_ file: Int) -> FileSummary { index.files[file] }

    /// The tokens and scopes of file `file`, rebuilt from its bytes.
    func file(_ file: Int) -> SourceFile {
        if let cached = cache[file] { return cached }
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        let built = SourceFile(path: index.files[file].path, bytes: sources[file])
        cache[file] = built
        return built
    }

    /// The closures the sources assign to a property called `name` (`pushes.onIncomingPush = { payload, done in … }`),
    /// each by its `{`: calling the property runs one of them.
    func closuresAssigned(to name: String) -> [Site] {
        if let known = assignedClosures[name] { return known }
        var sites: [Site] = []
        for fileIndex in 0..<fileCount where summary(fileIndex).namesReset.contains(name) {
            let source = file(fileIndex)
            for reset in summary(fileIndex).resets where reset.name == name {
                let open = Int(reset.token) + 2
                if source.isPunct(open, ASCII.openBrace) { sites.append(Site(fileIndex, open)) }
            }
        }
        assignedClosures[name] = sites
        return sites
    }

    /// The call recorded for token `token` of file `file` (the called name's token), if the summary has one.
    func call(file: Int, token: Int) -> CallInfo? {
        if callsByToken[file] == nil {
            var byToken: [Int32: Int32] = [:]
            for (index, call) in index.files[file].calls.enumerated() { byToken[call.token] = Int32(index) }
            callsByToken[file] = byToken
        }
        guard let call = callsByToken[file]?[Int32(token)] else { return nil }
        return index.files[file].calls[Int(call)]
    }

    /// The project callables a call (or function reference) at token `token` of file `file` may reach.
    func resolved(file: Int, token: Int, name: String, labels: [String]) -> [CallableID] {
        let site = Site(file, token)
        if let known = resolvedCalls[site] { return known }
        var call: CallInfo
        if let indexed = self.call(file: file, token: token) {
            call = indexed
        } else {
            call = CallInfo(
                name: name, labels: labels, arguments: [], caller: caller(file: file, token: token),
                token: Int32(token), line: 0, column: 0)
            // Not a call the index holds (each is, with its parentheses or trailing closure): a function named, when
            // no labels are given.
            call.isReference = labels.isEmpty
        }
        let result = index.resolve(call: call, from: Int32(file))
        resolvedCalls[site] = result
        return result
    }

    /// Whether the registration call `id` registers a continued-processing task (`BGContinuedProcessingTask`), which
    /// may be registered at any time and runs once: itself, or through a project function it may reach (the app's own
    /// `register(forTaskWithIdentifier:…)`, also through a protocol) that holds such a registration.
    func registersContinuedTask(_ id: CallID) -> Bool {
        if continuedRegistrations.calls.contains(id) { return true }
        guard !continuedRegistrations.callers.isEmpty else { return false }
        let call = index.call(id)
        return resolved(file: Int(id.file), token: Int(call.token), name: call.name, labels: call.labels)
            .contains(where: continuedRegistrations.callers.contains)
    }

    /// For each identifier, the kinds of request built for it.
    typealias RequestKinds = [IdentifierValue: Set<RequestInfo.Kind>]

    /// The kinds of request built for each identifier, found once; a request built only in code nothing runs counts
    /// for nothing.
    private(set) lazy var requestKinds: RequestKinds = {
        var result: RequestKinds = [:]
        for (fileIndex, summary) in index.files.enumerated() {
            for request in summary.requests {
                let call = CallID(file: Int32(fileIndex), index: request.call)
                guard !isUnreachable(index.caller(of: call)) else { continue }
                for identifier in index.resolveIdentifier(request.identifier, in: index.caller(of: call), origin: call)
                {
                    result[identifier.value, default: []].insert(request.kind)
                }
            }
        }
        return result
    }()

    /// The continued-processing registrations, and the callables that hold them, found once.
    private lazy var continuedRegistrations: (calls: Set<CallID>, callers: Set<CallableID>) = {
        var calls: Set<CallID> = []
        for file in 0..<fileCount {
            for registration in summary(file).registrations where registration.continued {
                calls.insert(CallID(file: Int32(file), index: registration.call))
            }
        }
        return (calls, Set(calls.map(index.caller(of:))))
    }()

    /// The project callable a call at token `token` of file `file` reaches, when there is exactly one.
    func callee(file: Int, token: Int, name: String, labels: [String]) -> CallableID? {
        ProjectIndex.unique(
            resolved(file: file, token: token, name: name, labels: labels), in: index, from: Int32(file))
    }

    /// The local callable whose code holds token `token`: the innermost function or computed property, the stored
    /// values of the innermost type, or the top-level code.
    func caller(file fileIndex: Int, token: Int) -> Int32 {
        let file = self.file(fileIndex)
        var scope = Int(file.scopeOf[token])
        while scope > 0, !file.scopes[scope].isCallable, file.scopes[scope].kind != .type {
            scope = Int(file.scopes[scope].parent)
        }
        let callables = index.files[fileIndex].callables
        return Int32(callables.firstIndex { Int($0.scope) == scope } ?? 0)
    }

}
