/// Background `URLSession`s: tasks without completion handlers or `async` conveniences, uploads from files, and a
/// delegate to receive the results.
///
/// A name is resolved the way Swift resolves it, as far as the sources tell: a local of the same function first,
/// then a property of the caller's type (in any file, extensions included), then a global. `self.session` and
/// `Type.shared.session` name a property of that type; a session reached through an instance of a type the audit
/// cannot tell is not judged. A session is background when the configuration it is made from resolves, by the
/// same rules from where the session is made, to `URLSessionConfiguration.background(withIdentifier:)`. Unrelated
/// files — another type's `session`, another function's `config` — never change a finding.
struct SessionCheck {
    let project: Project

    private static let taskMethods: Set<String> = ["dataTask", "downloadTask", "uploadTask"]
    private static let conveniences: Set<String> = ["data", "download", "upload", "bytes"]
    /// The first argument labels of `URLSession`'s `async` conveniences (`data(for:)`, `download(resumeFrom:)` …): a
    /// method of the app's own of the same name (`upload(file:fromLocalURL:)`) is not one.
    private static let convenienceFirstLabels: Set<String> = ["for", "from", "resumeFrom"]

    private struct Declared {
        var file: Int
        var info: SessionInfo
    }

    /// Declarations by name, sessions and configurations apart.
    private let sessions: [String: [Declared]]
    private let configurations: [String: [Declared]]
    /// For each computed property's name, its type and the configurations its body binds.
    private let configurationsMadeByProperties: [String: [(type: String?, kinds: [SessionInfo.Configuration])]]

    init(project: Project) {
        self.project = project
        var sessions: [String: [Declared]] = [:]
        var configurations: [String: [Declared]] = [:]
        for (fileIndex, summary) in project.index.files.enumerated() {
            for session in summary.sessions {
                guard let binding = session.binding else { continue }
                let declared = Declared(file: fileIndex, info: session)
                if session.isSession {
                    sessions[binding.name, default: []].append(declared)
                } else {
                    configurations[binding.name, default: []].append(declared)
                }
            }
        }
        self.sessions = sessions
        self.configurations = configurations
        var made: [String: [(type: String?, kinds: [SessionInfo.Configuration])]] = [:]
        var byCallable: [CallableID: [SessionInfo.Configuration]] = [:]
        for declared in configurations.values.joined() {
            guard case .local(let callable)? = declared.info.binding?.place else { continue }
            byCallable[CallableID(file: Int32(declared.file), index: callable), default: []].append(
                declared.info.configuration)
        }
        for (id, kinds) in byCallable {
            let callable = project.index.callable(id)
            guard callable.kind == .property else { continue }
            made[callable.name, default: []].append((callable.typeName, kinds))
        }
        configurationsMadeByProperties = made
    }

    func run(into findings: inout [Finding]) {
        let files = project.index.files
        for (fileIndex, summary) in files.enumerated() {
            for session in summary.sessions where session.isSession && !session.hasDelegate && !session.startsNoTask {
                guard isBackground(session, file: fileIndex) else { continue }
                let location = SourceLocation(
                    file: summary.path, line: Int(session.line), column: Int(session.column))
                let name =
                    session.binding.map { "`\($0.name)` is a background session made" }
                    ?? "This background session is made"
                findings.append(
                    Finding(
                        rule: .backgroundSessionWithoutDelegate, at: location,
                        message: "\(name) without a delegate; a background session reports its results only to "
                            + "its delegate, so finished transfers are never seen."))
            }
            for use in summary.sessionUses {
                let location = SourceLocation(file: summary.path, line: Int(use.line), column: Int(use.column))
                let declarations = resolve(use.reference, in: sessions, file: fileIndex, caller: use.caller)
                if declarations.isEmpty, let chosen = backgroundChoice(of: use, file: fileIndex) {
                    check(
                        use, as: "`\(use.receiver)` is the background session `\(chosen)` when chosen", at: location,
                        into: &findings)
                }
                guard !declarations.isEmpty,
                    declarations.allSatisfy({ isBackground($0.info, file: $0.file) })
                else { continue }
                check(use, as: "`\(use.receiver)` is a background session", at: location, into: &findings)
            }
        }
    }

    /// The declarations `reference`, written in callable `caller` of file `file` (at `line`, when known), refers
    /// to: the first tier that has any. Of several locals of the name, the latest made before `line`: each of a type's
    /// property initializers (`lazy var session: URLSession = { let config = …; return URLSession(…) }()`) has its
    /// own `config`.
    private func resolve(
        _ reference: Reference, in table: [String: [Declared]], file: Int, caller: Int32, line: Int32 = 0
    ) -> [Declared] {
        let callerType = project.index.callable(CallableID(file: Int32(file), index: caller)).typeName
        switch reference {
        case .unknown:
            return []
        case .member(let name, let type):
            guard let type, let candidates = table[name] else { return [] }
            return candidates.filter { $0.info.binding?.place == .member(type) }
        case .bare(let name):
            guard let candidates = table[name] else { return [] }
            let local = candidates.filter { $0.file == file && $0.info.binding?.place == .local(caller) }
            if line > 0,
                let latest = local.filter({ $0.info.line > 0 && $0.info.line <= line }).max(by: {
                    $0.info.line < $1.info.line
                })
            {
                return [latest]
            }
            if !local.isEmpty { return local }
            if let callerType {
                let members = candidates.filter { $0.info.binding?.place == .member(callerType) }
                if !members.isEmpty { return members }
            }
            let globals = candidates.filter { $0.info.binding?.place == .global }
            let sameFile = globals.filter { $0.file == file }
            return sameFile.isEmpty ? globals : sameFile
        }
    }

    /// For a use of a local bound to a choice of sessions (`let session = useBackground ? backgroundSession :
    /// foregroundSession`), the name of a branch that is a background session: on the paths that choose it, the use
    /// is one of a background session. Each branch is a name resolved from the use's function.
    private func backgroundChoice(of use: SessionUse, file fileIndex: Int) -> String? {
        guard case .bare(let name) = use.reference else { return nil }
        let file = project.file(fileIndex)
        let function = project.index.callable(CallableID(file: Int32(fileIndex), index: use.caller))
        let open = Int(file.scopes[Int(function.scope)].open)
        let token = Int(use.token)
        guard open >= 0, open < token else { return nil }
        // The latest declaration of the local before the use: `let name = condition ? first : second`.
        guard
            let declared = stride(from: token - 2, to: open, by: -1).first(where: {
                file.isIdentifier($0) && file.text($0) == name
                    && (file.word($0 - 1) == .let || file.word($0 - 1) == .var)
            }), file.isPunct(declared + 1, ASCII.equals)
        else { return nil }
        for cursor in (declared + 2)..<token {
            if cursor > declared + 2, file.startsStatement(cursor) { break }
            guard file.isPunct(cursor, ASCII.question), cursor + 1 < token,
                let first = sessionName(at: cursor + 1, in: file), cursor + 2 + first.length < token,
                file.isPunct(cursor + 1 + first.length, ASCII.colon),
                let second = sessionName(at: cursor + 2 + first.length, in: file),
                cursor + 2 + first.length + second.length < token,
                file.startsStatement(cursor + 2 + first.length + second.length)
            else { continue }
            for branch in [first, second] {
                let reference: Reference =
                    branch.length == 1 ? .bare(branch.name) : .member(name: branch.name, type: function.typeName)
                let declarations = resolve(reference, in: sessions, file: fileIndex, caller: use.caller)
                if !declarations.isEmpty, declarations.allSatisfy({ isBackground($0.info, file: $0.file) }) {
                    return branch.name
                }
            }
            return nil
        }
        return nil
    }

    /// A branch of a choice that names a session: `session` or `self.session`, and its length in tokens.
    private func sessionName(at index: Int, in file: SourceFile) -> (name: String, length: Int)? {
        if file.word(index) == .`self`, file.isPunct(index + 1, ASCII.dot), file.isIdentifier(index + 2) {
            return (file.text(index + 2), 3)
        }
        guard file.isIdentifier(index), file.word(index) == .none else { return nil }
        return (file.text(index), 1)
    }

    /// Whether a session is made from a background configuration (for a configuration: whether it is one).
    private func isBackground(_ session: SessionInfo, file: Int) -> Bool {
        switch session.configuration {
        case .background:
            return true
        case .other:
            return false
        case .named(let reference):
            let declarations = resolve(
                reference, in: configurations, file: file, caller: session.caller, line: session.line)
            if declarations.isEmpty, case .bare(let name) = reference {
                return computedConfigurationIsBackground(named: name, from: file, caller: session.caller)
            }
            return !declarations.isEmpty && declarations.allSatisfy { $0.info.configuration == .background }
        }
    }

    /// Whether `name`, a computed property of the caller's type (or a global one) whose body makes the configuration
    /// it returns (`var backgroundConfiguration: URLSessionConfiguration { let c = .background(…); …; return c }`),
    /// makes a background one: every configuration bound in its body is.
    private func computedConfigurationIsBackground(named name: String, from file: Int, caller: Int32) -> Bool {
        let index = project.index
        let callerType = index.callable(CallableID(file: Int32(file), index: caller)).typeName
        for made in configurationsMadeByProperties[name] ?? [] where made.type == callerType {
            if !made.kinds.isEmpty, made.kinds.allSatisfy({ $0 == .background }) { return true }
        }
        return false
    }

    /// Checks a use of a background session; `subject` says which session it is (`` `session` is a background
    /// session ``).
    private func check(
        _ use: SessionUse, as subject: String, at location: SourceLocation, into findings: inout [Finding]
    ) {
        let signature = "\(use.method)(\(use.labels.map { "\($0):" }.joined()))"
        let takesHandler = use.hasTrailingClosure || use.labels.contains("completionHandler")
        if Self.taskMethods.contains(use.method), takesHandler {
            findings.append(
                Finding(
                    rule: .backgroundSessionCompletionHandler, at: location,
                    message: "\(subject); `\(signature)` with a completion "
                        + "handler is not supported there."))
        } else if Self.conveniences.contains(use.method), let first = use.labels.first,
            Self.convenienceFirstLabels.contains(first)
        {
            findings.append(
                Finding(
                    rule: .backgroundSessionCompletionHandler, at: location,
                    message: "\(subject); the async `\(signature)` is not "
                        + "supported there."))
        }
        let fromData = use.labels.contains("from") && (use.method == "uploadTask" || use.method == "upload")
        let streamed = use.method == "uploadTask" && use.labels.first == "withStreamedRequest"
        if fromData || streamed {
            findings.append(
                Finding(
                    rule: .backgroundUploadFromData, at: location,
                    message: "\(subject); it uploads only from a file, not "
                        + (streamed ? "from a stream." : "from Data.")))
        }
    }
}
