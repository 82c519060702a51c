import Testing

@testable import Audit

@Suite("Tokenizer")
struct TokenizerTests {
    /// The tokens of `source` as `(kind, text, line)`.
    static func tokens(_ source: String) -> [(kind: Token.Kind, text: String, line: Int)] {
        let file = SourceFile(path: "test.swift", bytes: Array(source.utf8))
        return file.tokens.indices.map { (file.tokens[$0].kind, file.text($0), file.line($0)) }
    }

    static func texts(_ source: String) -> [String] { tokens(source).map(\.text) }

    @Test("line comments and nested block comments hide the code in them")
    func comments() {
        let source = """
            a // b.submit(request)
            /* outer /* inner */ BGTaskScheduler.shared.register() */ c
            /* /* /* three */ deep */ still */ d
            """
        #expect(Self.texts(source) == ["a", "c", "d"])
        #expect(Self.tokens(source).map(\.line) == [1, 2, 3])
    }

    @Test("an unterminated block comment runs to the end of the file")
    func unterminatedComment() {
        #expect(Self.texts("a /* b /* c */ d") == ["a"])
    }

    @Test("a string literal with escaped quotes is one token")
    func escapedQuotes() {
        let tokens = Self.tokens(#"let s = "say \"register(\" now" ; x"#)
        #expect(tokens.map(\.text) == ["let", "s", "=", #""say \"register(\" now""#, ";", "x"])
        #expect(tokens[3].kind == .string)
    }

    @Test("interpolation with nested parentheses and string literals stays inside its literal")
    func interpolation() {
        let source = #"let s = "a \(f("b)", (1 + (2)), "\(g(")"))")) c" + tail"#
        let tokens = Self.tokens(source)
        #expect(tokens.map(\.text) == ["let", "s", "=", #""a \(f("b)", (1 + (2)), "\(g(")"))")) c""#, "+", "tail"])
        #expect(tokens[3].kind == .interpolatedString)
    }

    @Test("a comment inside an interpolation does not end the literal")
    func commentInInterpolation() {
        let texts = Self.texts(#"x("\(a /* ) " */ + b) done") y"#)
        #expect(texts == ["x", "(", #""\(a /* ) " */ + b) done""#, ")", "y"])
    }

    @Test("a multi-line string is one token and later lines are counted")
    func multilineString() {
        let source =
            "let s = \"\"\"\n    line \"quoted\" \\(x) and \"\"\n    \\\"\"\" not the end\n"
            + "    BGTaskScheduler.shared.submit()\n    \"\"\"\nnext"
        let tokens = Self.tokens(source)
        #expect(tokens.map(\.text) == ["let", "s", "=", tokens[3].text, "next"])
        #expect(tokens[3].kind == .interpolatedString)
        #expect(tokens.last?.line == 6)
    }

    @Test("raw strings end only at a quote followed by as many hashes")
    func rawStrings() {
        let tokens = Self.tokens(###"a = ##"one "# two \(x)"## ; c = #"\#(z)"#"###)
        #expect(tokens.map(\.text) == ["a", "=", ###"##"one "# two \(x)"##"###, ";", "c", "=", ###"#"\#(z)"#"###])
        #expect(tokens[2].kind == .string, "a backslash-paren in a raw string is text")
        #expect(tokens[6].kind == .interpolatedString, "a backslash-hash-paren in a raw string interpolates")
    }

    @Test("a raw multi-line string may contain triple quotes")
    func rawMultiline() {
        let source = "x = #\"\"\"\n  \"\"\" not the end\n  \"\"\"#\ny"
        #expect(Self.texts(source).last == "y")
        #expect(Self.tokens(source).last?.line == 4)
    }

    @Test("an unterminated single-line string ends at the end of its line")
    func unterminatedString() {
        let tokens = Self.tokens("a = \"open\nb")
        #expect(tokens.map(\.text) == ["a", "=", "\"open", "b"])
        #expect(tokens.last?.line == 2)
    }

    @Test("numbers keep ranges and tuple elements apart")
    func numbers() {
        #expect(Self.texts("1..<5") == ["1", ".", ".", "<", "5"])
        #expect(Self.texts("pair.0.1") == ["pair", ".", "0", ".", "1"])
        #expect(Self.texts("x = 1_000.5e-3 + 0x1F") == ["x", "=", "1_000.5e-3", "+", "0x1F"])
    }

    @Test("backticks make a keyword an identifier")
    func backticks() {
        let file = SourceFile(path: "t.swift", bytes: Array("let `default` = `func`".utf8))
        #expect(file.text(1) == "default")
        #expect(file.word(1) == .none)
        #expect(file.word(0) == .let)
    }

    @Test("#if conditions are skipped, other # names are tokens")
    func directives() {
        let tokens = Self.tokens("#if canImport(UIKit) && DEBUG\nx\n#else\ny\n#endif\n#selector(f)")
        #expect(tokens.map(\.text) == ["#if", "x", "#else", "y", "#endif", "#", "selector", "(", "f", ")"])
        #expect(tokens[0].kind == .directive)
    }

    @Test("a raw regex literal is one token")
    func regex() {
        #expect(Self.texts(#"let r = #/a"b/c/# ; d"#) == ["let", "r", "=", #"#/a"b/c/#"#, ";", "d"])
    }

    /// Found by Fuzz/FuzzAuditTokenizer: the backslash stepped over a byte that was not there, so the
    /// literal's token ended past the file and a rule reading its text read past the buffer.
    @Test("a raw regex literal cut off right after a backslash ends at the end of the file")
    func regexEndingInBackslash() {
        for source in ["#/a\\", "x = #/\\", "##/\\", "#/a\\\\\\"] {
            let bytes = Array(source.utf8)
            let tokens = Tokenizer.tokenize(bytes)
            #expect(tokens.allSatisfy { $0.start <= $0.end && Int($0.end) <= bytes.count }, "\(source)")
            #expect(Self.texts(source).last == String(source[source.firstIndex(of: "#")!...]), "\(source)")
        }
    }

    @Test("keywords are recognised and non-ASCII names are identifiers")
    func words() {
        let file = SourceFile(path: "t.swift", bytes: Array("guard let café = x else { return }".utf8))
        #expect(file.word(0) == .guard)
        #expect(file.text(2) == "café")
        #expect(file.word(2) == .none)
        #expect(file.word(5) == .else)
        #expect(file.word(7) == .return)
    }

    @Test("string values decode escapes and strip raw delimiters")
    func stringValues() {
        let file = SourceFile(path: "t.swift", bytes: Array(##"a("x\ty\"z\u{E9}", #"r\n"#, "\(i)")"##.utf8))
        #expect(file.stringValue(2) == "x\ty\"zé")
        #expect(file.stringValue(4) == #"r\n"#)
        #expect(file.stringValue(6) == nil)
    }

    @Test("columns count characters, not bytes")
    func columns() {
        let file = SourceFile(path: "t.swift", bytes: Array("let é = 1; register()".utf8))
        let register = file.tokens.indices.first { file.text($0) == "register" }!
        #expect(file.column(register) == 12)
    }
}

@Suite("Scope structure")
struct StructureTests {
    static func file(_ source: String) -> SourceFile { SourceFile(path: "t.swift", bytes: Array(source.utf8)) }

    static func token(_ file: SourceFile, _ text: String, occurrence: Int = 0) -> Int {
        file.tokens.indices.filter { file.text($0) == text }[occurrence]
    }

    /// The kinds and names of the scopes around token `index`, innermost first.
    static func chain(_ file: SourceFile, _ index: Int) -> [String] {
        var result: [String] = []
        var scope = Int(file.scopeOf[index])
        while scope > 0 {
            let current = file.scopes[scope]
            let name = current.name >= 0 ? file.text(Int(current.name)) : "-"
            result.append("\(current.kind):\(name)")
            scope = Int(current.parent)
        }
        return result
    }

    @Test("a call inside .onAppear knows it is in that closure, in body, in the view")
    func onAppear() {
        let file = Self.file(
            """
            struct ContentView: View {
                var body: some View {
                    Text("x").onAppear {
                        if ready { BGTaskScheduler.shared.register(forTaskWithIdentifier: id, using: nil) { task in } }
                    }
                }
            }
            """)
        #expect(
            Self.chain(file, Self.token(file, "register")) == [
                "control:if", "closure:onAppear", "property:body", "type:ContentView",
            ])
    }

    @Test("argument labels that are keywords do not open control scopes")
    func keywordLabels() {
        let file = Self.file(
            """
            func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload,
                              for type: PKPushType, completion: @escaping () -> Void) {
                work(in: queue, default: 1)
            }
            """)
        #expect(Self.chain(file, Self.token(file, "work")) == ["function:pushRegistry"])
    }

    @Test("a closure default argument does not steal the function body")
    func defaultArgumentClosure() {
        let file = Self.file("func run(done: () -> Void = { if a { b() } }) {\n    body()\n}")
        #expect(Self.chain(file, Self.token(file, "body")) == ["function:run"])
        #expect(Self.chain(file, Self.token(file, "b")).last == "closure:-")
    }

    @Test("closures know the call, label and assignment they belong to")
    func closureRoles() {
        let file = Self.file(
            """
            register(forTaskWithIdentifier: id, using: nil, launchHandler: { task in
                task.expirationHandler = { cancel() }
                DispatchQueue.main.async { later() }
                items.forEach { item in use(item) }
            })
            """)
        let handler = file.scopes[Int(file.scopeOf[Self.token(file, "expirationHandler")])]
        #expect(file.text(Int(handler.name)) == "register")
        #expect(file.text(Int(handler.label)) == "launchHandler")
        let expiration = file.scopes[Int(file.scopeOf[Self.token(file, "cancel")])]
        #expect(file.text(Int(expiration.assignee)) == "expirationHandler")
        #expect(Self.chain(file, Self.token(file, "later")).first == "closure:async")
        #expect(Self.chain(file, Self.token(file, "use")).first == "closure:forEach")
    }

    @Test("guard-else, if-else, do-catch and switch bodies are control scopes")
    func controlScopes() {
        let file = Self.file(
            """
            func f() {
                guard let x else { return }
                if a { one() } else if b { two() } else { three() }
                do { try four() } catch { five() }
                repeat { six() } while c
                seven { eight() }
            }
            """)
        for name in ["one", "two", "three", "four", "five", "six"] {
            #expect(Self.chain(file, Self.token(file, name)).first?.hasPrefix("control:") == true, "\(name)")
        }
        #expect(Self.chain(file, Self.token(file, "eight")).first == "closure:seven")
    }

    @Test("class as a modifier is not a type declaration, a computed property is a body")
    func modifiersAndProperties() {
        let file = Self.file(
            """
            class Store {
                class func make() -> Store { Store() }
                static var identifier: String { "com.example.refresh" }
                lazy var session: URLSession = { URLSession(configuration: .default) }()
            }
            """)
        #expect(Self.chain(file, Self.token(file, "Store", occurrence: 2)) == ["function:make", "type:Store"])
        #expect(Self.chain(file, Self.token(file, "\"com.example.refresh\"")) == ["property:identifier", "type:Store"])
        #expect(Self.chain(file, Self.token(file, "URLSession", occurrence: 1)).first == "closure:-")
    }

    @Test("brackets are matched and a stray closer does not shift later scopes")
    func matching() {
        let file = Self.file("f(a[1], { b }) ) }\nfunc g() { h() }")
        #expect(file.matching[1] == 10)
        #expect(file.matching[3] == 5)
        #expect(Self.chain(file, Self.token(file, "h")) == ["function:g"])
    }
}
