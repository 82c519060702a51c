/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: the completion handler is kept and called
/// from `urlSessionDidFinishEvents(forBackgroundURLSession:)`, once the session has delivered its events, not
/// while the callback runs.
struct BackgroundEventsCheck {
    let project: Project

    /// Closures that run the code they are given soon and on their own, so a call in them is still a call now.
    private static let immediateClosures: Set<String> = ["async", "asyncAfter", "sync", "Task", "detached", "run"]

    func run(into findings: inout [Finding]) {
        for fileIndex in 0..<project.fileCount {
            let summary = project.summary(fileIndex)
            guard !summary.backgroundEventHandlers.isEmpty else { continue }
            let file = project.file(fileIndex)
            for callable in summary.backgroundEventHandlers {
                let info = summary.callables[Int(callable)]
                guard info.parameters.count == 3 else { continue }
                let handler = info.parameters[2]
                let body = file.scopes[Int(info.scope)]
                guard body.open >= 0, !handsOver(handler, in: file, body: body) else { continue }
                for token in (Int(body.open) + 1)..<min(Int(body.close), file.count)
                where file.isIdentifier(token) && !file.isPunct(token - 1, ASCII.dot) && file.text(token) == handler {
                    let called =
                        file.isPunct(token + 1, ASCII.openParen)
                        || (file.isPunct(token + 1, ASCII.question) && file.isPunct(token + 2, ASCII.openParen))
                    guard called, runsNow(token, in: file, body: Int(info.scope)) else { continue }
                    findings.append(
                        Finding(
                            rule: .backgroundEventsCompletionTooEarly, at: file.location(token),
                            message: "`\(handler)` is called while handleEventsForBackgroundURLSession runs, before "
                                + "the session has delivered its events; keep it and call it from "
                                + "urlSessionDidFinishEvents(forBackgroundURLSession:)."))
                }
            }
        }
    }

    /// Whether the body stores the completion handler or passes it on somewhere: then a direct call on another path
    /// is the case where no session of the app has events to deliver (an identifier it does not know), where
    /// calling it at once is right.
    private func handsOver(_ handler: String, in file: SourceFile, body: Scope) -> Bool {
        for token in (Int(body.open) + 1)..<min(Int(body.close), file.count)
        where file.isIdentifier(token) && file.text(token) == handler && !file.isPunct(token - 1, ASCII.dot) {
            let called =
                file.isPunct(token + 1, ASCII.openParen)
                || (file.isPunct(token + 1, ASCII.question) && file.isPunct(token + 2, ASCII.openParen))
            if !called { return true }
        }
        return false
    }

    /// Whether the code at `token` runs as part of the callback: not inside a closure kept for later or a local
    /// function, only inside dispatches that run soon by themselves.
    private func runsNow(_ token: Int, in file: SourceFile, body: Int) -> Bool {
        var scope = Int(file.scopeOf[token])
        while scope != body, scope > 0 {
            let current = file.scopes[scope]
            switch current.kind {
            case .closure:
                guard current.name >= 0, Self.immediateClosures.contains(file.text(Int(current.name))) else {
                    return false
                }
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
