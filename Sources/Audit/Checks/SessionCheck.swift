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

    private struct Declared {
        var file: Int
        var info: SessionInfo
    }

    /// Declarations by name, sessions and configurations apart.
    private let sessions: [String: [Declared]]
    private let configurations: [String: [Declared]]

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
    }

    func run(into findings: inout [Finding]) {
        let files = project.index.files
        for (fileIndex, summary) in files.enumerated() {
            for session in summary.sessions where session.isSession && !session.hasDelegate {
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
                let declarations = resolve(use.reference, in: sessions, file: fileIndex, caller: use.caller)
                guard !declarations.isEmpty,
                    declarations.allSatisfy({ isBackground($0.info, file: $0.file) })
                else { continue }
                let location = SourceLocation(file: summary.path, line: Int(use.line), column: Int(use.column))
                check(use, at: location, into: &findings)
            }
        }
    }

    /// The declarations `reference`, written in callable `caller` of file `file`, refers to: the first tier that
    /// has any.
    private func resolve(_ reference: Reference, in table: [String: [Declared]], file: Int, caller: Int32)
        -> [Declared]
    {
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

    /// Whether a session is made from a background configuration (for a configuration: whether it is one).
    private func isBackground(_ session: SessionInfo, file: Int) -> Bool {
        switch session.configuration {
        case .background:
            return true
        case .other:
            return false
        case .named(let reference):
            let declarations = resolve(reference, in: configurations, file: file, caller: session.caller)
            return !declarations.isEmpty && declarations.allSatisfy { $0.info.configuration == .background }
        }
    }

    private func check(_ use: SessionUse, at location: SourceLocation, into findings: inout [Finding]) {
        let signature = "\(use.method)(\(use.labels.map { "\($0):" }.joined()))"
        let takesHandler = use.hasTrailingClosure || use.labels.contains("completionHandler")
        if Self.taskMethods.contains(use.method), takesHandler {
            findings.append(
                Finding(
                    rule: .backgroundSessionCompletionHandler, at: location,
                    message: "`\(use.receiver)` is a background session; `\(signature)` with a completion "
                        + "handler is not supported there."))
        } else if Self.conveniences.contains(use.method) {
            findings.append(
                Finding(
                    rule: .backgroundSessionCompletionHandler, at: location,
                    message: "`\(use.receiver)` is a background session; the async `\(signature)` is not "
                        + "supported there."))
        }
        let fromData = use.labels.contains("from") && (use.method == "uploadTask" || use.method == "upload")
        let streamed = use.method == "uploadTask" && use.labels.first == "withStreamedRequest"
        if fromData || streamed {
            findings.append(
                Finding(
                    rule: .backgroundUploadFromData, at: location,
                    message: "`\(use.receiver)` is a background session; it uploads only from a file, not "
                        + (streamed ? "from a stream." : "from Data.")))
        }
    }
}
