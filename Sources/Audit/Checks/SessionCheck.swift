/// Tasks on background `URLSession`s: no completion handlers or `async` conveniences, no data or stream uploads.
struct SessionCheck {
    let project: Project

    private static let taskMethods: Set<String> = ["dataTask", "downloadTask", "uploadTask"]
    private static let conveniences: Set<String> = ["data", "download", "upload", "bytes"]

    func run(into findings: inout [Finding]) {
        let files = project.index.files
        var backgroundConfigurations: [String: Set<Int>] = [:]
        for (fileIndex, summary) in files.enumerated() {
            for session in summary.sessions where !session.isSession && session.configuration == .background {
                backgroundConfigurations[session.name, default: []].insert(fileIndex)
            }
        }
        // For each name, whether each file's session declarations under that name are background sessions.
        var sessions: [String: [(file: Int, background: Bool)]] = [:]
        for (fileIndex, summary) in files.enumerated() {
            for session in summary.sessions where session.isSession {
                let background: Bool
                switch session.configuration {
                case .background: background = true
                case .named(let name): background = backgroundConfigurations[name] != nil
                case .other: background = false
                }
                sessions[session.name, default: []].append((fileIndex, background))
            }
        }
        for (fileIndex, summary) in files.enumerated() {
            for use in summary.sessionUses {
                guard let declarations = sessions[use.receiver] else { continue }
                let local = declarations.filter { $0.file == fileIndex }
                let relevant = local.isEmpty ? declarations : local
                guard relevant.allSatisfy(\.background) else { continue }
                let location = SourceLocation(file: summary.path, line: Int(use.line), column: Int(use.column))
                check(use, at: location, into: &findings)
            }
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
