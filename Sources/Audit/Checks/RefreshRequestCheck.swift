/// `requiresExternalPower` / `requiresNetworkConnectivity` set on a `BGAppRefreshTaskRequest`, directly, through
/// `as? BGProcessingTaskRequest`, or through key-value coding.
struct RefreshRequestCheck {
    let project: Project

    private static let requirements: Set<String> = ["requiresExternalPower", "requiresNetworkConnectivity"]

    func run(into findings: inout [Finding]) {
        for fileIndex in 0..<project.fileCount {
            let summary = project.summary(fileIndex)
            guard summary.needsDetailedPass, summary.requests.contains(where: { $0.kind == .refresh }) else { continue }
            let file = project.file(fileIndex)
            var bodies: Set<Int> = []
            for request in summary.requests where request.kind == .refresh {
                let token = Int(summary.calls[Int(request.call)].token)
                bodies.insert(file.callable(containing: token) ?? 0)
            }
            for body in bodies.sorted() { check(body: body, in: file, into: &findings) }
        }
    }

    /// Looks at one function: names bound to a refresh request, names bound to a processing request, casts of
    /// the former, and requirement assignments on any of them.
    private func check(body scope: Int, in file: SourceFile, into findings: inout [Finding]) {
        let range = scope == 0 ? 0..<file.count : Int(file.scopes[scope].open)..<Int(file.scopes[scope].close)
        var refresh: Set<String> = []
        var processing: Set<String> = []
        var casts: [String: String] = [:]
        // Each binding of a name to a new request, in order: a name bound to both kinds (`let request = …` in two
        // `case`s of a `switch`) is the kind of its nearest binding before a use.
        var bindings: [(token: Int, name: String, isRefresh: Bool)] = []
        for token in range {
            guard file.isPunct(token, ASCII.equals), !file.isPunct(token + 1, ASCII.equals),
                !file.isPunct(token - 1, ASCII.equals), let name = boundName(beforeEquals: token, in: file)
            else { continue }
            if file.is(token + 1, "BGAppRefreshTaskRequest") {
                refresh.insert(name)
                bindings.append((token, name, true))
            }
            if file.is(token + 1, "BGProcessingTaskRequest") {
                processing.insert(name)
                bindings.append((token, name, false))
            }
            if file.isIdentifier(token + 1), file.word(token + 2) == .as,
                file.is(token + 4, "BGProcessingTaskRequest")
                    || file.is(token + 3, "BGProcessingTaskRequest")
            {
                casts[name] = file.text(token + 1)
            }
        }
        guard !refresh.isEmpty else { return }
        for token in range where file.isIdentifier(token) {
            let name = file.text(token)
            if Self.requirements.contains(name), file.isPunct(token - 1, ASCII.dot) {
                guard let request = requestName(before: token - 1, in: file, casts: casts) else { continue }
                guard refresh.contains(request.name), !(request.viaCast && processing.contains(request.name)),
                    bindings.last(where: { $0.token < token && $0.name == request.name })?.isRefresh != false
                else {
                    continue
                }
                let how = request.viaCast ? "through a cast to BGProcessingTaskRequest, which fails" : "directly"
                findings.append(
                    Finding(
                        rule: .refreshRequestRequirements, at: file.location(token),
                        message: "`\(name)` is set \(how) on `\(request.name)`, a BGAppRefreshTaskRequest; "
                            + "refresh requests have no such requirement."))
            } else if name == "setValue", file.isPunct(token - 1, ASCII.dot), file.isIdentifier(token - 2),
                refresh.contains(file.text(token - 2)), file.isPunct(token + 1, ASCII.openParen)
            {
                let key = file.arguments(ofCallAt: token + 1).first { $0.label >= 0 && file.is($0.label, "forKey") }
                guard let key, let value = file.stringValue(key.start), Self.requirements.contains(value) else {
                    continue
                }
                findings.append(
                    Finding(
                        rule: .refreshRequestRequirements, at: file.location(token),
                        message: "`\(value)` is set by key on `\(file.text(token - 2))`, a "
                            + "BGAppRefreshTaskRequest, which raises NSUnknownKeyException."))
            }
        }
    }

    /// `name` in `let name = …`, `var name: BGTaskRequest = …` and `name = …`.
    private func boundName(beforeEquals equals: Int, in file: SourceFile) -> String? {
        var cursor = equals - 1
        while cursor > equals - 6, cursor >= 0, file.line(cursor) == file.line(equals) {
            if file.word(cursor) == .let || file.word(cursor) == .var {
                return file.isIdentifier(cursor + 1) ? file.text(cursor + 1) : nil
            }
            cursor -= 1
        }
        return file.isIdentifier(equals - 1) ? file.text(equals - 1) : nil
    }

    /// The request a requirement is set on: `request.requires…`, `(request as? BGProcessingTaskRequest)?.requires…`,
    /// or `processing.requires…` where `processing` came from such a cast.
    private func requestName(before dot: Int, in file: SourceFile, casts: [String: String])
        -> (name: String, viaCast: Bool)?
    {
        var cursor = dot - 1
        if file.isPunct(cursor, ASCII.question) || file.isPunct(cursor, ASCII.bang) { cursor -= 1 }
        if file.isPunct(cursor, ASCII.closeParen) {
            let open = Int(file.matching[cursor])
            guard open >= 0, file.isIdentifier(open + 1), file.word(open + 2) == .as else { return nil }
            return (file.text(open + 1), true)
        }
        guard file.isIdentifier(cursor) else { return nil }
        let name = file.text(cursor)
        if let original = casts[name] { return (original, true) }
        return (name, false)
    }
}
